CREATE TABLE `queue_counts` (
	`study_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`submitted` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`study_id`, `user_id`),
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `queue_counts` (`study_id`, `user_id`, `total`, `submitted`)
SELECT `study_id`, `user_id`, count(*), coalesce(sum(`state` = 'submitted'), 0) FROM `assignments` GROUP BY `study_id`, `user_id`;
--> statement-breakpoint
CREATE TRIGGER `assignments_count_insert` AFTER INSERT ON `assignments` BEGIN
  INSERT INTO `queue_counts` (`study_id`, `user_id`, `total`, `submitted`) VALUES (NEW.`study_id`, NEW.`user_id`, 1, NEW.`state` = 'submitted')
    ON CONFLICT (`study_id`, `user_id`) DO UPDATE SET `total` = `total` + 1, `submitted` = `submitted` + excluded.`submitted`;
END;
--> statement-breakpoint
CREATE TRIGGER `assignments_count_delete` AFTER DELETE ON `assignments` BEGIN
  UPDATE `queue_counts` SET `total` = `total` - 1, `submitted` = `submitted` - (OLD.`state` = 'submitted')
    WHERE `study_id` = OLD.`study_id` AND `user_id` = OLD.`user_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `assignments_count_update` AFTER UPDATE OF `state`, `study_id`, `user_id` ON `assignments` BEGIN
  UPDATE `queue_counts` SET `total` = `total` - 1, `submitted` = `submitted` - (OLD.`state` = 'submitted')
    WHERE `study_id` = OLD.`study_id` AND `user_id` = OLD.`user_id`;
  INSERT INTO `queue_counts` (`study_id`, `user_id`, `total`, `submitted`) VALUES (NEW.`study_id`, NEW.`user_id`, 1, NEW.`state` = 'submitted')
    ON CONFLICT (`study_id`, `user_id`) DO UPDATE SET `total` = `total` + 1, `submitted` = `submitted` + excluded.`submitted`;
END;
