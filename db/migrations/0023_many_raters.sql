-- Hand-written (decision 0028): any number of raters per item.
-- The plan (studies.reviewers_per_item, 1..10) bounds the assignments the app makes, which are inserted pending;
-- imported prior annotations arrive submitted and may bring as many raters per item as the data has (a crowd
-- dataset has hundreds), in the slots after the plan. So the bound applies to pending inserts only.
DROP TRIGGER assignments_slot_within_plan;
--> statement-breakpoint
CREATE TRIGGER assignments_slot_within_plan
BEFORE INSERT ON assignments
WHEN NEW.state = 'pending' AND NEW.slot > (SELECT reviewers_per_item FROM studies WHERE id = NEW.study_id)
BEGIN
  SELECT RAISE(ABORT, 'assignment slot exceeds the reviewers planned per item');
END;
