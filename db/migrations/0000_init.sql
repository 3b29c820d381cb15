CREATE TABLE `annotations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`assignment_id` integer NOT NULL,
	`revision` integer NOT NULL,
	`request_id` text NOT NULL,
	`decision` text,
	`after_step` integer,
	`reasons` text,
	`note` text,
	`payload` text,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "annotations_truncate_has_step" CHECK("annotations"."decision" IS NOT 'truncate' OR "annotations"."after_step" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `annotations_assignment_revision_unique` ON `annotations` (`assignment_id`,`revision`);--> statement-breakpoint
CREATE UNIQUE INDEX `annotations_request_unique` ON `annotations` (`request_id`);--> statement-breakpoint
CREATE TABLE `assignments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`slot` integer NOT NULL,
	`queue_position` integer NOT NULL,
	`swapped` integer DEFAULT false NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`active_ms` integer DEFAULT 0 NOT NULL,
	`first_seen_at` integer,
	`submitted_at` integer,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "assignments_slot_positive" CHECK("assignments"."slot" >= 1),
	CONSTRAINT "assignments_active_ms_nonnegative" CHECK("assignments"."active_ms" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assignments_item_user_unique` ON `assignments` (`item_id`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `assignments_item_slot_unique` ON `assignments` (`item_id`,`slot`);--> statement-breakpoint
CREATE INDEX `assignments_queue_idx` ON `assignments` (`user_id`,`study_id`,`state`,`queue_position`);--> statement-breakpoint
CREATE INDEX `assignments_study_state_idx` ON `assignments` (`study_id`,`state`,`submitted_at`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`action` text NOT NULL,
	`study_id` integer,
	`object_id` integer,
	`detail` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_log_study_idx` ON `audit_log` (`study_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `drafts` (
	`assignment_id` integer PRIMARY KEY NOT NULL,
	`payload` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_id` integer NOT NULL,
	`kind` text NOT NULL,
	`format` text NOT NULL,
	`filename` text NOT NULL,
	`records` integer NOT NULL,
	`inserted` integer NOT NULL,
	`unchanged` integer NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_id` integer NOT NULL,
	`external_id` text NOT NULL,
	`position` integer NOT NULL,
	`payload` text NOT NULL,
	`content_hash` text NOT NULL,
	`step_count` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `items_study_external_unique` ON `items` (`study_id`,`external_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `items_study_position_unique` ON `items` (`study_id`,`position`);--> statement-breakpoint
CREATE TABLE `studies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`guidelines` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`pay_rate_cents` integer DEFAULT 0 NOT NULL,
	`reviewers_per_item` integer DEFAULT 1 NOT NULL,
	`seed` integer NOT NULL,
	`principles` text NOT NULL,
	`criteria` text,
	`adjudicator_id` integer,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`opened_at` integer,
	`closed_at` integer,
	FOREIGN KEY (`adjudicator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "studies_reviewers_range" CHECK("studies"."reviewers_per_item" BETWEEN 1 AND 10),
	CONSTRAINT "studies_pay_rate_nonnegative" CHECK("studies"."pay_rate_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE `study_members` (
	`study_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`set_index` integer,
	PRIMARY KEY(`study_id`, `user_id`),
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`display_name` text NOT NULL,
	`password_hash` text,
	`role` text DEFAULT 'annotator' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`session_version` integer DEFAULT 1 NOT NULL,
	`failed_sign_ins` integer DEFAULT 0 NOT NULL,
	`locked_until` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "users_username_format" CHECK("users"."username" GLOB '[a-z0-9]*' AND length("users"."username") BETWEEN 2 AND 64)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);