CREATE TABLE `item_reply_lengths` (
	`item_id` integer PRIMARY KEY NOT NULL,
	`study_id` integer NOT NULL,
	`length_a` integer,
	`length_b` integer,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `item_reply_lengths_study_idx` ON `item_reply_lengths` (`study_id`,`item_id`,`length_a`,`length_b`);--> statement-breakpoint
ALTER TABLE `judge_runs` ADD `recipe` text;--> statement-breakpoint
-- Every pairwise item's reply lengths, written with the item (items are never updated; a deleted item takes its
-- row with it). Other kinds of study have no replies a and b and get no row.
CREATE TRIGGER `items_reply_lengths_insert` AFTER INSERT ON `items`
WHEN (SELECT `kind` FROM `studies` WHERE `id` = NEW.`study_id`) = 'pairwise'
BEGIN
  INSERT INTO `item_reply_lengths` (`item_id`, `study_id`, `length_a`, `length_b`)
  VALUES (NEW.`id`, NEW.`study_id`, length(json_extract(NEW.`payload`, '$.a.text')), length(json_extract(NEW.`payload`, '$.b.text')));
END;
--> statement-breakpoint
INSERT INTO `item_reply_lengths` (`item_id`, `study_id`, `length_a`, `length_b`)
SELECT i.`id`, i.`study_id`, length(json_extract(i.`payload`, '$.a.text')), length(json_extract(i.`payload`, '$.b.text'))
  FROM `items` i JOIN `studies` s ON s.`id` = i.`study_id`
 WHERE s.`kind` = 'pairwise';
