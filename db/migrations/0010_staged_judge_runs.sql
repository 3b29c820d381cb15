-- Judge runs are written in short batches like items (lib/server/imports/judge-import.ts): a run is 'staging' until its
-- import's last transaction makes it 'done', and readers see only 'done' runs.
ALTER TABLE `judge_runs` ADD `import_id` integer;--> statement-breakpoint
ALTER TABLE `judge_runs` ADD `state` text DEFAULT 'done' NOT NULL;--> statement-breakpoint
-- A failed or abandoned run is undone in short batches too, so its verdicts and packs may go while the run is
-- still 'staging'; a run that is 'done' keeps them until the run or the item goes (migration 0007).
DROP TRIGGER judge_labels_kept;--> statement-breakpoint
CREATE TRIGGER judge_labels_kept
BEFORE DELETE ON judge_labels
WHEN EXISTS (SELECT 1 FROM judge_runs WHERE id = OLD.run_id AND state = 'done') AND EXISTS (SELECT 1 FROM items WHERE id = OLD.item_id)
BEGIN
  SELECT RAISE(ABORT, 'judge labels are deleted only with their run or item');
END;--> statement-breakpoint
DROP TRIGGER judge_label_packs_kept;--> statement-breakpoint
CREATE TRIGGER judge_label_packs_kept
BEFORE DELETE ON judge_label_packs
WHEN EXISTS (SELECT 1 FROM judge_runs WHERE id = OLD.run_id AND state = 'done') AND EXISTS (SELECT 1 FROM items WHERE id = OLD.item_id)
BEGIN
  SELECT RAISE(ABORT, 'a judge label pack is deleted only with its run or item');
END;--> statement-breakpoint
-- Once 'done', a run stays done: its verdicts are append-only and its packs mirror them.
CREATE TRIGGER judge_runs_done_final
BEFORE UPDATE OF state ON judge_runs
WHEN OLD.state = 'done' AND NEW.state IS NOT 'done'
BEGIN
  SELECT RAISE(ABORT, 'a judge run that is done stays done');
END;
