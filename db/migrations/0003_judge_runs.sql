CREATE TABLE `judge_labels` (
	`run_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`criterion` text NOT NULL,
	`swapped` integer DEFAULT false NOT NULL,
	`label` text NOT NULL,
	`rationale` text,
	PRIMARY KEY(`run_id`, `item_id`, `criterion`, `swapped`),
	FOREIGN KEY (`run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "judge_labels_label_valid" CHECK("judge_labels"."label" IN ('lose', 'tie', 'win'))
);
--> statement-breakpoint
CREATE TABLE `judge_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_id` integer NOT NULL,
	`name` text NOT NULL,
	`format` text NOT NULL,
	`filename` text NOT NULL,
	`unparsed` text NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `judge_runs_study_name_unique` ON `judge_runs` (`study_id`,`name`);