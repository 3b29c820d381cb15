CREATE TABLE `active_draw_items` (
	`draw_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`pi` real NOT NULL,
	`drawn` integer NOT NULL,
	PRIMARY KEY(`draw_id`, `item_id`),
	FOREIGN KEY (`draw_id`) REFERENCES `active_draws`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "active_draw_items_pi_range" CHECK("active_draw_items"."pi" > 0 AND "active_draw_items"."pi" <= 1)
);
--> statement-breakpoint
CREATE INDEX `active_draw_items_item_idx` ON `active_draw_items` (`item_id`);--> statement-breakpoint
CREATE TABLE `active_draws` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_id` integer NOT NULL,
	`run_id` integer NOT NULL,
	`criterion` text NOT NULL,
	`source` text NOT NULL,
	`second_run_id` integer,
	`budget` real NOT NULL,
	`tau` real NOT NULL,
	`seed` integer NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`second_run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "active_draws_budget_range" CHECK("active_draws"."budget" > 0 AND "active_draws"."budget" <= 1),
	CONSTRAINT "active_draws_tau_range" CHECK("active_draws"."tau" >= 0 AND "active_draws"."tau" <= 1)
);
--> statement-breakpoint
CREATE INDEX `active_draws_run_idx` ON `active_draws` (`run_id`,`criterion`);--> statement-breakpoint
CREATE INDEX `active_draws_study_idx` ON `active_draws` (`study_id`);--> statement-breakpoint
CREATE INDEX `active_draws_second_run_idx` ON `active_draws` (`second_run_id`);--> statement-breakpoint
CREATE INDEX `active_draws_created_by_idx` ON `active_draws` (`created_by`);