-- Every rubric item's reply length in characters, in `length_a` (`length_b` stays null: a rubric item has one
-- reply), for the rubric length-bias report; written with the item like the pairwise lengths of 0013. A whole-
-- dialogue item (no reply) gets a row with no length.
CREATE TRIGGER `items_rubric_reply_lengths_insert` AFTER INSERT ON `items`
WHEN (SELECT `kind` FROM `studies` WHERE `id` = NEW.`study_id`) = 'rubric'
BEGIN
  INSERT INTO `item_reply_lengths` (`item_id`, `study_id`, `length_a`, `length_b`)
  VALUES (NEW.`id`, NEW.`study_id`, length(json_extract(NEW.`payload`, '$.reply.text')), NULL);
END;
--> statement-breakpoint
INSERT INTO `item_reply_lengths` (`item_id`, `study_id`, `length_a`, `length_b`)
SELECT i.`id`, i.`study_id`, length(json_extract(i.`payload`, '$.reply.text')), NULL
  FROM `items` i JOIN `studies` s ON s.`id` = i.`study_id`
 WHERE s.`kind` = 'rubric';
