CREATE TABLE `adjudications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`item_id` integer NOT NULL,
	`criterion` text NOT NULL,
	`revision` integer NOT NULL,
	`label` text NOT NULL,
	`rationale` text,
	`adjudicator_id` integer NOT NULL,
	`request_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`adjudicator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "adjudications_label_valid" CHECK("adjudications"."label" IN ('lose', 'tie', 'win'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `adjudications_item_criterion_revision_unique` ON `adjudications` (`item_id`,`criterion`,`revision`);--> statement-breakpoint
CREATE INDEX `adjudications_request_idx` ON `adjudications` (`request_id`);--> statement-breakpoint
CREATE TABLE `labels` (
	`annotation_id` integer NOT NULL,
	`criterion` text NOT NULL,
	`label` text NOT NULL,
	`screen_choice` text,
	PRIMARY KEY(`annotation_id`, `criterion`),
	FOREIGN KEY (`annotation_id`) REFERENCES `annotations`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "labels_label_valid" CHECK("labels"."label" IN ('lose', 'tie', 'win')),
	CONSTRAINT "labels_screen_choice_valid" CHECK("labels"."screen_choice" IS NULL OR "labels"."screen_choice" IN ('r1', 'tie', 'r2'))
);
--> statement-breakpoint
ALTER TABLE `items` ADD `source_a` text;--> statement-breakpoint
ALTER TABLE `items` ADD `source_b` text;--> statement-breakpoint
ALTER TABLE `studies` ADD `assignment_mode` text DEFAULT 'balanced' NOT NULL;--> statement-breakpoint
ALTER TABLE `studies` ADD `ground_truth_rule` text DEFAULT 'adjudicated' NOT NULL;