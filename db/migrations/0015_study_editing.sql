CREATE TABLE `app_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `study_guideline_versions` (
	`study_id` integer NOT NULL,
	`version` integer NOT NULL,
	`guidelines` text NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`study_id`, `version`),
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "study_guideline_versions_positive" CHECK("study_guideline_versions"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE `studies` ADD `deadline_at` integer;--> statement-breakpoint
ALTER TABLE `studies` ADD `archived_at` integer;--> statement-breakpoint
-- Every existing study's guidelines become its version 1.
INSERT INTO `study_guideline_versions` (`study_id`, `version`, `guidelines`, `created_by`, `created_at`)
  SELECT `id`, 1, `guidelines`, `created_by`, `created_at` FROM `studies`;
