-- A rubric judge run's verdicts packed per (run, sample, item) for the dashboards (db/schema.ts,
-- `rubric_judge_label_packs`): one character per dimension, 48 + 16 · dimension + label, kept equal to
-- `rubric_judge_labels` by the triggers below for every writer.
CREATE TABLE `rubric_judge_label_packs` (
	`run_id` integer NOT NULL,
	`sample` integer NOT NULL,
	`item_id` integer NOT NULL,
	`packed` text NOT NULL,
	`segment` text GENERATED ALWAYS AS ('/' || "item_id" || '.' || "packed") STORED,
	PRIMARY KEY(`run_id`, `sample`, `item_id`),
	FOREIGN KEY (`run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO rubric_judge_label_packs (run_id, sample, item_id, packed)
SELECT run_id, sample, item_id, group_concat(char(48 + 16 * dimension + label), '')
  FROM rubric_judge_labels GROUP BY run_id, sample, item_id;
--> statement-breakpoint
CREATE TRIGGER rubric_judge_labels_pack
AFTER INSERT ON rubric_judge_labels
BEGIN
  INSERT INTO rubric_judge_label_packs (run_id, sample, item_id, packed)
  VALUES (NEW.run_id, NEW.sample, NEW.item_id, char(48 + 16 * NEW.dimension + NEW.label))
  ON CONFLICT (run_id, sample, item_id) DO UPDATE SET packed = packed || excluded.packed;
END;
--> statement-breakpoint
-- A deleted or changed verdict (an undone import deleting its rows, a cascade from its item) rebuilds its pack
-- from the rows left; a pack with no rows left goes.
CREATE TRIGGER rubric_judge_labels_unpack
AFTER DELETE ON rubric_judge_labels
BEGIN
  DELETE FROM rubric_judge_label_packs WHERE run_id = OLD.run_id AND sample = OLD.sample AND item_id = OLD.item_id;
  INSERT INTO rubric_judge_label_packs (run_id, sample, item_id, packed)
  SELECT run_id, sample, item_id, group_concat(char(48 + 16 * dimension + label), '') FROM rubric_judge_labels
   WHERE run_id = OLD.run_id AND sample = OLD.sample AND item_id = OLD.item_id
   GROUP BY run_id, sample, item_id;
END;
--> statement-breakpoint
CREATE TRIGGER rubric_judge_labels_repack
AFTER UPDATE ON rubric_judge_labels
BEGIN
  DELETE FROM rubric_judge_label_packs WHERE run_id = OLD.run_id AND sample = OLD.sample AND item_id = OLD.item_id;
  DELETE FROM rubric_judge_label_packs WHERE run_id = NEW.run_id AND sample = NEW.sample AND item_id = NEW.item_id;
  INSERT INTO rubric_judge_label_packs (run_id, sample, item_id, packed)
  SELECT run_id, sample, item_id, group_concat(char(48 + 16 * dimension + label), '') FROM rubric_judge_labels
   WHERE run_id = OLD.run_id AND sample = OLD.sample AND item_id = OLD.item_id
   GROUP BY run_id, sample, item_id;
  INSERT INTO rubric_judge_label_packs (run_id, sample, item_id, packed)
  SELECT run_id, sample, item_id, group_concat(char(48 + 16 * dimension + label), '') FROM rubric_judge_labels
   WHERE run_id = NEW.run_id AND sample = NEW.sample AND item_id = NEW.item_id
     AND NOT (NEW.run_id = OLD.run_id AND NEW.sample = OLD.sample AND NEW.item_id = OLD.item_id)
   GROUP BY run_id, sample, item_id;
END;
