CREATE TABLE `assignment_remarks` (
	`assignment_id` integer PRIMARY KEY NOT NULL,
	`flag_reason` text,
	`flagged_at` integer,
	`comment` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "assignment_remarks_flag_reason" CHECK("assignment_remarks"."flag_reason" IS NULL OR (length(trim("assignment_remarks"."flag_reason")) > 0 AND "assignment_remarks"."flagged_at" IS NOT NULL)),
	CONSTRAINT "assignment_remarks_comment" CHECK("assignment_remarks"."comment" IS NULL OR length(trim("assignment_remarks"."comment")) > 0)
);
