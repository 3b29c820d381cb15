ALTER TABLE `imports` ADD `state` text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE `imports` ADD `owner_pid` integer;--> statement-breakpoint
ALTER TABLE `imports` ADD `owner_host` text;--> statement-breakpoint
ALTER TABLE `imports` ADD `heartbeat_at` integer;--> statement-breakpoint
ALTER TABLE `items` ADD `import_id` integer;--> statement-breakpoint
CREATE INDEX `items_import_idx` ON `items` (`import_id`);