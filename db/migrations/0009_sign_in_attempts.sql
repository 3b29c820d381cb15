CREATE TABLE `sign_in_attempts` (
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`attempts` integer NOT NULL,
	`locked_until` integer,
	`last_attempt_at` integer NOT NULL,
	PRIMARY KEY(`kind`, `key`)
);
--> statement-breakpoint
CREATE INDEX `sign_in_attempts_last_idx` ON `sign_in_attempts` (`last_attempt_at`);--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `failed_sign_ins`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `locked_until`;