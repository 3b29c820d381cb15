CREATE TABLE `judge_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`base_url` text NOT NULL,
	`key_env` text,
	`models` text NOT NULL,
	`price_in` text,
	`price_out` text,
	`created_by` integer,
	`updated_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `judge_endpoints_name_unique` ON `judge_endpoints` (`name`);--> statement-breakpoint
-- Hand-written: drizzle-kit drops the ON DELETE action of a column added by ALTER TABLE; the schema says
-- `set null` (a removed endpoint leaves its finished runs with their recorded URL).
ALTER TABLE `judge_launches` ADD `endpoint_id` integer REFERENCES judge_endpoints(id) ON DELETE SET NULL;