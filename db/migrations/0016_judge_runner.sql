CREATE TABLE `judge_answer_cache` (
	`key` text PRIMARY KEY NOT NULL,
	`raw` text NOT NULL,
	`tokens_in` integer NOT NULL,
	`tokens_out` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `judge_answers` (
	`run_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`criterion` text NOT NULL,
	`sample` integer NOT NULL,
	`swapped` integer NOT NULL,
	`verdicts` text NOT NULL,
	`unreadable` integer NOT NULL,
	`raw` text NOT NULL,
	`prompt_hash` text NOT NULL,
	`tokens_in` integer DEFAULT 0 NOT NULL,
	`tokens_out` integer DEFAULT 0 NOT NULL,
	`latency_ms` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`cached` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`run_id`, `item_id`, `criterion`, `sample`, `swapped`),
	FOREIGN KEY (`run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `judge_answers_run_created_idx` ON `judge_answers` (`run_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `judge_launches` (
	`run_id` integer PRIMARY KEY NOT NULL,
	`template_id` integer NOT NULL,
	`endpoint` text NOT NULL,
	`model` text NOT NULL,
	`api_key_env` text,
	`temperature_milli` integer,
	`max_tokens` integer,
	`seed` integer,
	`samples` integer DEFAULT 1 NOT NULL,
	`both_orders` integer DEFAULT true NOT NULL,
	`concurrency` integer DEFAULT 4 NOT NULL,
	`item_limit` integer,
	`timeout_ms` integer NOT NULL,
	`max_attempts` integer NOT NULL,
	`circuit_after` integer NOT NULL,
	`price_in` text,
	`price_out` text,
	`state` text DEFAULT 'running' NOT NULL,
	`reason` text,
	`requests` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`owner_pid` integer,
	`owner_host` text,
	`heartbeat_at` integer,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`template_id`) REFERENCES `judge_templates`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "judge_launches_samples_range" CHECK("judge_launches"."samples" BETWEEN 1 AND 100),
	CONSTRAINT "judge_launches_concurrency_range" CHECK("judge_launches"."concurrency" BETWEEN 1 AND 256)
);
--> statement-breakpoint
CREATE INDEX `judge_launches_state_idx` ON `judge_launches` (`state`);--> statement-breakpoint
CREATE TABLE `judge_templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_id` integer NOT NULL,
	`name` text NOT NULL,
	`version` integer NOT NULL,
	`body` text NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "judge_templates_version_positive" CHECK("judge_templates"."version" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `judge_templates_study_name_version_unique` ON `judge_templates` (`study_id`,`name`,`version`);--> statement-breakpoint
-- An answer, once stored, is what the judge said: never changed (a new request is a new sample or a new run).
CREATE TRIGGER judge_answers_append_only
BEFORE UPDATE ON judge_answers
BEGIN
  SELECT RAISE(ABORT, 'judge answers are append-only');
END;--> statement-breakpoint
-- A template version is what a run recorded; editing a template adds a version.
CREATE TRIGGER judge_templates_immutable
BEFORE UPDATE ON judge_templates
BEGIN
  SELECT RAISE(ABORT, 'a judge template version never changes; add a new version');
END;
