-- An item never gets more reviewers than its study plans: slots run 1..reviewers_per_item.
CREATE TRIGGER assignments_slot_within_plan
BEFORE INSERT ON assignments
WHEN NEW.slot > (SELECT reviewers_per_item FROM studies WHERE id = NEW.study_id)
BEGIN
  SELECT RAISE(ABORT, 'assignment slot exceeds the reviewers planned per item');
END;
--> statement-breakpoint
-- An assignment belongs to the study of its item.
CREATE TRIGGER assignments_item_in_study
BEFORE INSERT ON assignments
WHEN NEW.study_id IS NOT (SELECT study_id FROM items WHERE id = NEW.item_id)
BEGIN
  SELECT RAISE(ABORT, 'assignment study does not match its item');
END;
--> statement-breakpoint
-- Annotations are append-only: a change is a new revision.
CREATE TRIGGER annotations_append_only
BEFORE UPDATE ON annotations
BEGIN
  SELECT RAISE(ABORT, 'annotations are append-only');
END;
--> statement-breakpoint
-- Items are immutable once imported.
CREATE TRIGGER items_immutable
BEFORE UPDATE OF payload, content_hash, external_id, study_id ON items
BEGIN
  SELECT RAISE(ABORT, 'items are immutable');
END;
