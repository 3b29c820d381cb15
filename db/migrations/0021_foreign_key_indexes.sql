CREATE INDEX `studies_created_by_idx` ON `studies` (`created_by`);--> statement-breakpoint
CREATE INDEX `studies_adjudicator_idx` ON `studies` (`adjudicator_id`);--> statement-breakpoint
CREATE INDEX `study_guideline_versions_created_by_idx` ON `study_guideline_versions` (`created_by`);--> statement-breakpoint
CREATE INDEX `study_members_user_idx` ON `study_members` (`user_id`);--> statement-breakpoint
CREATE INDEX `queue_counts_user_idx` ON `queue_counts` (`user_id`);--> statement-breakpoint
CREATE INDEX `judge_answers_item_idx` ON `judge_answers` (`item_id`);--> statement-breakpoint
CREATE INDEX `judge_labels_item_idx` ON `judge_labels` (`item_id`);--> statement-breakpoint
CREATE INDEX `judge_launches_template_idx` ON `judge_launches` (`template_id`);--> statement-breakpoint
CREATE INDEX `judge_runs_created_by_idx` ON `judge_runs` (`created_by`);--> statement-breakpoint
CREATE INDEX `judge_templates_created_by_idx` ON `judge_templates` (`created_by`);--> statement-breakpoint
CREATE INDEX `rubric_judge_labels_item_idx` ON `rubric_judge_labels` (`item_id`);--> statement-breakpoint
CREATE INDEX `adjudication_packs_item_idx` ON `adjudication_packs` (`item_id`);--> statement-breakpoint
CREATE INDEX `judge_label_packs_item_idx` ON `judge_label_packs` (`item_id`);--> statement-breakpoint
CREATE INDEX `rubric_judge_label_packs_item_idx` ON `rubric_judge_label_packs` (`item_id`);--> statement-breakpoint
CREATE INDEX `imports_study_idx` ON `imports` (`study_id`,`state`);--> statement-breakpoint
CREATE INDEX `imports_created_by_idx` ON `imports` (`created_by`);--> statement-breakpoint
CREATE INDEX `audit_log_user_idx` ON `audit_log` (`user_id`);