ALTER TABLE `judge_labels` ADD `confidence` real;--> statement-breakpoint
ALTER TABLE `rubric_judge_labels` ADD `confidence` real;