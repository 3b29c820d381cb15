import { stmt, type Db } from '../client';

/*
 * Everything recorded about one item, for its study's leads: every reviewer's every revision, every ruling, every
 * judge verdict. One item at a time, so these read rows rather than the packed labels.
 */

export type ItemRevisionRow = {
  assignmentId: number;
  slot: number;
  state: 'pending' | 'submitted';
  swapped: 0 | 1;
  activeMs: number;
  submittedAt: number | null;
  username: string;
  displayName: string;
  annotationId: number | null;
  revision: number | null;
  createdAt: number | null;
  decision: 'verify' | 'truncate' | 'discard' | null;
  afterStep: number | null;
  reasons: string | null;
  note: string | null;
};

/** The item's reviewers by slot, each with every revision they submitted (oldest first); none for an untouched one. */
export const itemRevisions = (db: Db, itemId: number) =>
  stmt(
    db,
    `SELECT a.id AS assignmentId, a.slot, a.state, a.swapped, a.active_ms AS activeMs, a.submitted_at AS submittedAt,
            u.username, u.display_name AS displayName,
            n.id AS annotationId, n.revision, n.created_at AS createdAt, n.decision, n.after_step AS afterStep, n.reasons, n.note
       FROM assignments a
       JOIN users u ON u.id = a.user_id
       LEFT JOIN annotations n ON n.assignment_id = a.id
      WHERE a.item_id = ?
      ORDER BY a.slot, n.revision`,
  ).all(itemId) as ItemRevisionRow[];

/** The labels of the item's annotations (all revisions). */
export const itemLabels = (db: Db, itemId: number) =>
  stmt(
    db,
    `SELECT l.annotation_id AS annotationId, l.criterion, l.label
       FROM labels l JOIN annotations n ON n.id = l.annotation_id JOIN assignments a ON a.id = n.assignment_id
      WHERE a.item_id = ?`,
  ).all(itemId) as { annotationId: number; criterion: string; label: 'lose' | 'tie' | 'win' }[];

/** Every ruling on the item, oldest first, with who made it. */
export const itemRulings = (db: Db, itemId: number) =>
  stmt(
    db,
    `SELECT j.criterion, j.revision, j.label, j.rationale, j.created_at AS createdAt, u.username
       FROM adjudications j JOIN users u ON u.id = j.adjudicator_id
      WHERE j.item_id = ? ORDER BY j.criterion, j.revision`,
  ).all(itemId) as {
    criterion: string;
    revision: number;
    label: 'lose' | 'tie' | 'win';
    rationale: string | null;
    createdAt: number;
    username: string;
  }[];

/** Every finished judge run's verdicts on the item. */
export const itemVerdicts = (db: Db, itemId: number) =>
  stmt(
    db,
    `SELECT r.name AS run, l.criterion, l.swapped, l.label, l.rationale
       FROM judge_labels l JOIN judge_runs r ON r.id = l.run_id
      WHERE l.item_id = ? AND r.state = 'done'
      ORDER BY r.name, l.criterion, l.swapped`,
  ).all(itemId) as { run: string; criterion: string; swapped: 0 | 1; label: 'lose' | 'tie' | 'win'; rationale: string | null }[];

/** The study's items in position order around one item: the previous and next item ids. */
export const neighbourItems = (db: Db, studyId: number, position: number) => ({
  previous:
    (stmt(db, 'SELECT id FROM items WHERE study_id = ? AND position < ? ORDER BY position DESC LIMIT 1').pluck().get(studyId, position) as
      number | undefined) ?? null,
  next:
    (stmt(db, 'SELECT id FROM items WHERE study_id = ? AND position > ? ORDER BY position LIMIT 1').pluck().get(studyId, position) as
      number | undefined) ?? null,
});

/**
 * One finished judge run's overall verdict per item of the study, in the order the judge saw a first when it judged
 * both orders (the label is always from a's side).
 */
export const runOverallVerdicts = (db: Db, studyId: number, runName: string) =>
  stmt(
    db,
    `SELECT l.item_id AS itemId, l.label
       FROM judge_labels l JOIN judge_runs r ON r.id = l.run_id
      WHERE r.study_id = ? AND r.name = ? AND r.state = 'done' AND l.criterion = 'overall'
        AND l.swapped = (SELECT min(x.swapped) FROM judge_labels x WHERE x.run_id = l.run_id AND x.item_id = l.item_id AND x.criterion = 'overall')`,
  ).all(studyId, runName) as { itemId: number; label: 'lose' | 'tie' | 'win' }[];
