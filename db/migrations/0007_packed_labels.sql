-- Packed labels for the dashboards (see the note in db/schema.ts): a per-study criterion dictionary and one short
-- string per annotation, per judged item and per adjudicated item, kept equal to the rows by the triggers below.
CREATE TABLE `criterion_codes` (
	`study_id` integer NOT NULL,
	`criterion` text NOT NULL,
	`code` integer NOT NULL,
	PRIMARY KEY(`study_id`, `criterion`),
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "criterion_codes_code_range" CHECK("criterion_codes"."code" BETWEEN 0 AND 8999)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE UNIQUE INDEX `criterion_codes_study_code_unique` ON `criterion_codes` (`study_id`,`code`);
--> statement-breakpoint
CREATE TABLE `annotation_packs` (
	`study_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`slot` integer NOT NULL,
	`revision` integer NOT NULL,
	`user_id` integer NOT NULL,
	`annotation_id` integer NOT NULL,
	`packed` text NOT NULL,
	`segment` text GENERATED ALWAYS AS ('/' || "item_id" || ',' || "slot" || ',' || "revision" || ',' || "user_id" || '.' || "packed") STORED,
	PRIMARY KEY(`study_id`, `item_id`, `slot`, `revision`),
	FOREIGN KEY (`annotation_id`) REFERENCES `annotations`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE UNIQUE INDEX `annotation_packs_annotation_unique` ON `annotation_packs` (`annotation_id`);
--> statement-breakpoint
CREATE TABLE `judge_label_packs` (
	`run_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`packed` text NOT NULL,
	`segment` text GENERATED ALWAYS AS ('/' || "item_id" || '.' || "packed") STORED,
	PRIMARY KEY(`run_id`, `item_id`),
	FOREIGN KEY (`run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `adjudication_packs` (
	`study_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`packed` text NOT NULL,
	`segment` text GENERATED ALWAYS AS ('/' || "item_id" || '.' || "packed") STORED,
	PRIMARY KEY(`study_id`, `item_id`),
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- The dashboards read the items' models from this index alone.
CREATE INDEX `items_study_source_idx` ON `items` (`study_id`,`source_a`);
--> statement-breakpoint
-- Backfill: codes in name order for what exists; later criteria get the next code on first use.
INSERT INTO criterion_codes (study_id, criterion, code)
SELECT study_id, criterion, row_number() OVER (PARTITION BY study_id ORDER BY criterion) - 1
  FROM (SELECT a.study_id, l.criterion
          FROM labels l JOIN annotations an ON an.id = l.annotation_id JOIN assignments a ON a.id = an.assignment_id
        UNION
        SELECT r.study_id, j.criterion FROM judge_labels j JOIN judge_runs r ON r.id = j.run_id
        UNION
        SELECT i.study_id, j.criterion FROM adjudications j JOIN items i ON i.id = j.item_id);
--> statement-breakpoint
INSERT INTO annotation_packs (study_id, item_id, slot, revision, user_id, annotation_id, packed)
SELECT a.study_id, a.item_id, a.slot, an.revision, a.user_id, an.id,
       coalesce((SELECT group_concat(char(48 + 3 * cc.code + (CASE l.label WHEN 'lose' THEN 0 WHEN 'tie' THEN 1 ELSE 2 END)), '')
                   FROM labels l JOIN criterion_codes cc ON cc.study_id = a.study_id AND cc.criterion = l.criterion
                  WHERE l.annotation_id = an.id), '')
  FROM annotations an JOIN assignments a ON a.id = an.assignment_id;
--> statement-breakpoint
INSERT INTO judge_label_packs (run_id, item_id, packed)
SELECT j.run_id, j.item_id,
       group_concat(char(48 + 6 * cc.code + (CASE j.swapped WHEN 0 THEN 0 ELSE 3 END)
                         + (CASE j.label WHEN 'lose' THEN 0 WHEN 'tie' THEN 1 ELSE 2 END)), '')
  FROM judge_labels j
  JOIN judge_runs r ON r.id = j.run_id
  JOIN criterion_codes cc ON cc.study_id = r.study_id AND cc.criterion = j.criterion
 GROUP BY j.run_id, j.item_id;
--> statement-breakpoint
INSERT INTO adjudication_packs (study_id, item_id, packed)
SELECT i.study_id, j.item_id,
       group_concat(char(48 + 3 * cc.code + (CASE j.label WHEN 'lose' THEN 0 WHEN 'tie' THEN 1 ELSE 2 END)), '')
  FROM adjudications j
  JOIN items i ON i.id = j.item_id
  JOIN criterion_codes cc ON cc.study_id = i.study_id AND cc.criterion = j.criterion
 WHERE j.revision = (SELECT max(revision) FROM adjudications WHERE item_id = j.item_id AND criterion = j.criterion)
 GROUP BY j.item_id;
--> statement-breakpoint
-- Every annotation gets its pack when it is written ('' until its labels come), so the newest revision of an
-- assignment is the last of its packs even when it has no labels.
CREATE TRIGGER annotations_pack
AFTER INSERT ON annotations
BEGIN
  INSERT INTO annotation_packs (study_id, item_id, slot, revision, user_id, annotation_id, packed)
  SELECT a.study_id, a.item_id, a.slot, NEW.revision, a.user_id, NEW.id, '' FROM assignments a WHERE a.id = NEW.assignment_id;
END;
--> statement-breakpoint
-- A criterion gets its study's next code the first time it is labelled, judged or ruled on. These run before
-- the row is written and only when the code is missing (the WHEN clause): an INSERT that reads the table it
-- writes needs a temporary copy of its SELECT, too costly to pay on every label.
CREATE TRIGGER labels_criterion_code
BEFORE INSERT ON labels
WHEN NOT EXISTS (SELECT 1 FROM annotation_packs p JOIN criterion_codes cc ON cc.study_id = p.study_id AND cc.criterion = NEW.criterion
                  WHERE p.annotation_id = NEW.annotation_id)
BEGIN
  INSERT INTO criterion_codes (study_id, criterion, code)
  SELECT p.study_id, NEW.criterion, (SELECT coalesce(max(code) + 1, 0) FROM criterion_codes WHERE study_id = p.study_id)
    FROM annotation_packs p
   WHERE p.annotation_id = NEW.annotation_id;
END;
--> statement-breakpoint
CREATE TRIGGER judge_labels_criterion_code
BEFORE INSERT ON judge_labels
WHEN NOT EXISTS (SELECT 1 FROM judge_runs r JOIN criterion_codes cc ON cc.study_id = r.study_id AND cc.criterion = NEW.criterion
                  WHERE r.id = NEW.run_id)
BEGIN
  INSERT INTO criterion_codes (study_id, criterion, code)
  SELECT r.study_id, NEW.criterion, (SELECT coalesce(max(code) + 1, 0) FROM criterion_codes WHERE study_id = r.study_id)
    FROM judge_runs r
   WHERE r.id = NEW.run_id;
END;
--> statement-breakpoint
CREATE TRIGGER adjudications_criterion_code
BEFORE INSERT ON adjudications
WHEN NOT EXISTS (SELECT 1 FROM items i JOIN criterion_codes cc ON cc.study_id = i.study_id AND cc.criterion = NEW.criterion
                  WHERE i.id = NEW.item_id)
BEGIN
  INSERT INTO criterion_codes (study_id, criterion, code)
  SELECT i.study_id, NEW.criterion, (SELECT coalesce(max(code) + 1, 0) FROM criterion_codes WHERE study_id = i.study_id)
    FROM items i
   WHERE i.id = NEW.item_id;
END;
--> statement-breakpoint
-- Every label, whatever writes it (a submission, an import of prior annotations, plain SQL), is appended to its
-- annotation's pack.
CREATE TRIGGER labels_pack
AFTER INSERT ON labels
BEGIN
  UPDATE annotation_packs
     SET packed = packed || (SELECT char(48 + 3 * cc.code + (CASE NEW.label WHEN 'lose' THEN 0 WHEN 'tie' THEN 1 ELSE 2 END))
                               FROM criterion_codes cc
                              WHERE cc.study_id = annotation_packs.study_id AND cc.criterion = NEW.criterion)
   WHERE annotation_id = NEW.annotation_id;
END;
--> statement-breakpoint
-- A judge's verdict joins its (run, item) pack, with the order it was given in.
CREATE TRIGGER judge_labels_pack
AFTER INSERT ON judge_labels
BEGIN
  INSERT INTO judge_label_packs (run_id, item_id, packed)
  SELECT NEW.run_id, NEW.item_id,
         char(48 + 6 * cc.code + (CASE NEW.swapped WHEN 0 THEN 0 ELSE 3 END)
              + (CASE NEW.label WHEN 'lose' THEN 0 WHEN 'tie' THEN 1 ELSE 2 END))
    FROM judge_runs r JOIN criterion_codes cc ON cc.study_id = r.study_id AND cc.criterion = NEW.criterion
   WHERE r.id = NEW.run_id
  ON CONFLICT (run_id, item_id) DO UPDATE SET packed = packed || excluded.packed;
END;
--> statement-breakpoint
-- A ruling rewrites its item's pack from the table: the newest revision of each criterion, whatever the order
-- the revisions were written in (an item has a handful of rulings).
CREATE TRIGGER adjudications_pack
AFTER INSERT ON adjudications
BEGIN
  INSERT INTO adjudication_packs (study_id, item_id, packed)
  SELECT i.study_id, i.id,
         (SELECT group_concat(char(48 + 3 * cc.code + (CASE j.label WHEN 'lose' THEN 0 WHEN 'tie' THEN 1 ELSE 2 END)), '')
            FROM adjudications j JOIN criterion_codes cc ON cc.study_id = i.study_id AND cc.criterion = j.criterion
           WHERE j.item_id = i.id
             AND j.revision = (SELECT max(revision) FROM adjudications WHERE item_id = i.id AND criterion = j.criterion))
    FROM items i
   WHERE i.id = NEW.item_id
  ON CONFLICT (study_id, item_id) DO UPDATE SET packed = excluded.packed;
END;
--> statement-breakpoint
-- The packs mirror rows that never change: labels, verdicts and rulings are append-only (a change is a new
-- revision or a new run), and go only with what they belong to.
CREATE TRIGGER labels_append_only
BEFORE UPDATE ON labels
BEGIN
  SELECT RAISE(ABORT, 'labels are append-only');
END;
--> statement-breakpoint
CREATE TRIGGER labels_kept
BEFORE DELETE ON labels
WHEN EXISTS (SELECT 1 FROM annotations WHERE id = OLD.annotation_id)
BEGIN
  SELECT RAISE(ABORT, 'labels are deleted only with their annotation');
END;
--> statement-breakpoint
CREATE TRIGGER judge_labels_append_only
BEFORE UPDATE ON judge_labels
BEGIN
  SELECT RAISE(ABORT, 'judge labels are append-only');
END;
--> statement-breakpoint
CREATE TRIGGER judge_labels_kept
BEFORE DELETE ON judge_labels
WHEN EXISTS (SELECT 1 FROM judge_runs WHERE id = OLD.run_id) AND EXISTS (SELECT 1 FROM items WHERE id = OLD.item_id)
BEGIN
  SELECT RAISE(ABORT, 'judge labels are deleted only with their run or item');
END;
--> statement-breakpoint
CREATE TRIGGER adjudications_append_only
BEFORE UPDATE ON adjudications
BEGIN
  SELECT RAISE(ABORT, 'adjudications are append-only');
END;
--> statement-breakpoint
CREATE TRIGGER adjudications_kept
BEFORE DELETE ON adjudications
WHEN EXISTS (SELECT 1 FROM items WHERE id = OLD.item_id)
BEGIN
  SELECT RAISE(ABORT, 'adjudications are deleted only with their item');
END;
--> statement-breakpoint
-- A pack goes only with what it mirrors.
CREATE TRIGGER annotation_packs_kept
BEFORE DELETE ON annotation_packs
WHEN EXISTS (SELECT 1 FROM annotations WHERE id = OLD.annotation_id)
BEGIN
  SELECT RAISE(ABORT, 'an annotation pack is deleted only with its annotation');
END;
--> statement-breakpoint
CREATE TRIGGER judge_label_packs_kept
BEFORE DELETE ON judge_label_packs
WHEN EXISTS (SELECT 1 FROM judge_runs WHERE id = OLD.run_id) AND EXISTS (SELECT 1 FROM items WHERE id = OLD.item_id)
BEGIN
  SELECT RAISE(ABORT, 'a judge label pack is deleted only with its run or item');
END;
--> statement-breakpoint
CREATE TRIGGER adjudication_packs_kept
BEFORE DELETE ON adjudication_packs
WHEN EXISTS (SELECT 1 FROM items WHERE id = OLD.item_id)
BEGIN
  SELECT RAISE(ABORT, 'an adjudication pack is deleted only with its item');
END;
--> statement-breakpoint
-- What the packs are filed under never moves: an assignment's study, item, slot and reviewer, a judge run's study.
CREATE TRIGGER assignments_placement_fixed
BEFORE UPDATE OF study_id, item_id, slot, user_id ON assignments
WHEN NEW.study_id IS NOT OLD.study_id OR NEW.item_id IS NOT OLD.item_id OR NEW.slot IS NOT OLD.slot OR NEW.user_id IS NOT OLD.user_id
BEGIN
  SELECT RAISE(ABORT, 'an assignment keeps its study, item, slot and reviewer');
END;
--> statement-breakpoint
CREATE TRIGGER judge_runs_study_fixed
BEFORE UPDATE OF study_id ON judge_runs
WHEN NEW.study_id IS NOT OLD.study_id
BEGIN
  SELECT RAISE(ABORT, 'a judge run keeps its study');
END;
