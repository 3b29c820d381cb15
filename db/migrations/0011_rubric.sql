-- Rubric studies (docs/decisions/0010-rubric-labels.md): labels, rulings and judge verdicts as small codes (the
-- dimension's index in the study's catalog, the label's index in the dimension's label set), and the group a
-- rubric item belongs to.
CREATE TABLE `rubric_adjudications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`item_id` integer NOT NULL,
	`dimension` integer NOT NULL,
	`revision` integer NOT NULL,
	`label` integer NOT NULL,
	`rationale` text,
	`adjudicator_id` integer NOT NULL,
	`request_id` text NOT NULL,
	`request_hash` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`adjudicator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "rubric_adjudications_dimension_range" CHECK("rubric_adjudications"."dimension" BETWEEN 0 AND 63),
	CONSTRAINT "rubric_adjudications_label_range" CHECK("rubric_adjudications"."label" BETWEEN 0 AND 15)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rubric_adjudications_item_dimension_revision_unique` ON `rubric_adjudications` (`item_id`,`dimension`,`revision`);--> statement-breakpoint
CREATE INDEX `rubric_adjudications_request_idx` ON `rubric_adjudications` (`adjudicator_id`,`request_id`);--> statement-breakpoint
CREATE TABLE `rubric_judge_labels` (
	`run_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`dimension` integer NOT NULL,
	`sample` integer DEFAULT 1 NOT NULL,
	`label` integer NOT NULL,
	`rationale` text,
	PRIMARY KEY(`run_id`, `item_id`, `dimension`, `sample`),
	FOREIGN KEY (`run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "rubric_judge_labels_dimension_range" CHECK("rubric_judge_labels"."dimension" BETWEEN 0 AND 63),
	CONSTRAINT "rubric_judge_labels_label_range" CHECK("rubric_judge_labels"."label" BETWEEN 0 AND 15),
	CONSTRAINT "rubric_judge_labels_sample_range" CHECK("rubric_judge_labels"."sample" BETWEEN 1 AND 100)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `rubric_labels` (
	`annotation_id` integer NOT NULL,
	`dimension` integer NOT NULL,
	`label` integer NOT NULL,
	PRIMARY KEY(`annotation_id`, `dimension`),
	FOREIGN KEY (`annotation_id`) REFERENCES `annotations`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "rubric_labels_dimension_range" CHECK("rubric_labels"."dimension" BETWEEN 0 AND 63),
	CONSTRAINT "rubric_labels_label_range" CHECK("rubric_labels"."label" BETWEEN 0 AND 15)
) WITHOUT ROWID;
--> statement-breakpoint
ALTER TABLE `items` ADD `group_key` text;--> statement-breakpoint
CREATE INDEX `items_study_group_idx` ON `items` (`study_id`,`group_key`);--> statement-breakpoint
-- Every rubric label, whatever writes it, joins its annotation's pack (db/schema.ts, "Packed labels"), one
-- character per dimension: 48 + 16 · dimension + label. A rubric study's packs are read with that encoding; the
-- dimension index needs no criterion code, since a rubric catalog never changes once the study exists.
CREATE TRIGGER rubric_labels_pack
AFTER INSERT ON rubric_labels
BEGIN
  UPDATE annotation_packs SET packed = packed || char(48 + 16 * NEW.dimension + NEW.label)
   WHERE annotation_id = NEW.annotation_id;
END;
