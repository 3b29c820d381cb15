DROP INDEX `adjudications_request_idx`;--> statement-breakpoint
ALTER TABLE `adjudications` ADD `request_hash` text;--> statement-breakpoint
CREATE INDEX `adjudications_request_idx` ON `adjudications` (`adjudicator_id`,`request_id`);--> statement-breakpoint
DROP INDEX `annotations_request_unique`;--> statement-breakpoint
ALTER TABLE `annotations` ADD `request_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `annotations_request_unique` ON `annotations` (`created_by`,`request_id`);--> statement-breakpoint
ALTER TABLE `assignments` ADD `credited_until` integer;