CREATE TABLE `annotator_exclusions` (
	`study_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`excluded_by` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`study_id`, `user_id`),
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`excluded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `annotator_exclusions_user_idx` ON `annotator_exclusions` (`user_id`);--> statement-breakpoint
CREATE INDEX `annotator_exclusions_excluded_by_idx` ON `annotator_exclusions` (`excluded_by`);
