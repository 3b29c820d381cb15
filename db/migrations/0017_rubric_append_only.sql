-- Rubric labels, rulings and judge verdicts are append-only like their pairwise counterparts (migration 0001): a
-- change is a new revision, never an edit, and rows go only with what owns them.
CREATE TRIGGER rubric_labels_append_only
BEFORE UPDATE ON rubric_labels
BEGIN
  SELECT RAISE(ABORT, 'rubric labels are append-only');
END;
--> statement-breakpoint
CREATE TRIGGER rubric_labels_kept
BEFORE DELETE ON rubric_labels
WHEN EXISTS (SELECT 1 FROM annotations WHERE id = OLD.annotation_id)
BEGIN
  SELECT RAISE(ABORT, 'rubric labels are deleted only with their annotation');
END;
--> statement-breakpoint
CREATE TRIGGER rubric_adjudications_append_only
BEFORE UPDATE ON rubric_adjudications
BEGIN
  SELECT RAISE(ABORT, 'rubric adjudications are append-only');
END;
--> statement-breakpoint
CREATE TRIGGER rubric_adjudications_kept
BEFORE DELETE ON rubric_adjudications
WHEN EXISTS (SELECT 1 FROM items WHERE id = OLD.item_id)
BEGIN
  SELECT RAISE(ABORT, 'rubric adjudications are deleted only with their item');
END;
--> statement-breakpoint
-- A staging run (an import still being written, or undone) may lose its verdicts; a finished one only with its run or item.
CREATE TRIGGER rubric_judge_labels_append_only
BEFORE UPDATE ON rubric_judge_labels
BEGIN
  SELECT RAISE(ABORT, 'rubric judge labels are append-only');
END;
--> statement-breakpoint
CREATE TRIGGER rubric_judge_labels_kept
BEFORE DELETE ON rubric_judge_labels
WHEN EXISTS (SELECT 1 FROM judge_runs WHERE id = OLD.run_id AND state = 'done') AND EXISTS (SELECT 1 FROM items WHERE id = OLD.item_id)
BEGIN
  SELECT RAISE(ABORT, 'rubric judge labels are deleted only with their run or item');
END;
