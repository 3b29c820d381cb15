CREATE TABLE `gold_labels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`unit` text NOT NULL,
	`label` text,
	`source` text NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "gold_labels_label_not_blank" CHECK("gold_labels"."label" IS NULL OR length(trim("gold_labels"."label")) > 0)
);
--> statement-breakpoint
CREATE INDEX `gold_labels_item_unit_idx` ON `gold_labels` (`item_id`,`unit`,`id`);--> statement-breakpoint
CREATE INDEX `gold_labels_study_idx` ON `gold_labels` (`study_id`,`item_id`);--> statement-breakpoint
CREATE INDEX `gold_labels_created_by_idx` ON `gold_labels` (`created_by`);--> statement-breakpoint
CREATE TABLE `study_gold_settings` (
	`study_id` integer PRIMARY KEY NOT NULL,
	`rate_pct` integer DEFAULT 0 NOT NULL,
	`alert_below_pct` integer,
	`updated_by` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "study_gold_settings_rate" CHECK("study_gold_settings"."rate_pct" BETWEEN 0 AND 50),
	CONSTRAINT "study_gold_settings_alert" CHECK("study_gold_settings"."alert_below_pct" IS NULL OR "study_gold_settings"."alert_below_pct" BETWEEN 0 AND 100)
);
--> statement-breakpoint
CREATE INDEX `study_gold_settings_updated_by_idx` ON `study_gold_settings` (`updated_by`);--> statement-breakpoint
-- ---- Hand-written (gold items, decision 0030) ----
-- Gold labels are append-only: a change of mind is a new row (the newest row of an item and unit counts).
CREATE TRIGGER gold_labels_append_only
BEFORE UPDATE ON gold_labels
BEGIN
  SELECT RAISE(ABORT, 'gold labels are append-only');
END;
--> statement-breakpoint
-- The current gold answers: the newest row of each item and unit, unless it unmarked the unit. An item is gold while
-- it has at least one row here. Readers that must leave gold items out (ground truth, agreement, disputes) filter on it.
CREATE VIEW gold_current AS
SELECT g.study_id, g.item_id, g.unit, g.label FROM gold_labels g
WHERE g.label IS NOT NULL AND g.id = (SELECT max(id) FROM gold_labels WHERE item_id = g.item_id AND unit = g.unit);
--> statement-breakpoint
-- A gold item goes to every reviewer whose queue it is mixed into, so its slots may run past the reviewers planned per
-- item; every other item keeps the bound on the app's own (pending) assignments of 0023_many_raters.
DROP TRIGGER assignments_slot_within_plan;
--> statement-breakpoint
CREATE TRIGGER assignments_slot_within_plan
BEFORE INSERT ON assignments
WHEN NEW.state = 'pending' AND NEW.slot > (SELECT reviewers_per_item FROM studies WHERE id = NEW.study_id)
  AND NOT EXISTS (SELECT 1 FROM gold_current WHERE item_id = NEW.item_id)
BEGIN
  SELECT RAISE(ABORT, 'assignment slot exceeds the reviewers planned per item');
END;
