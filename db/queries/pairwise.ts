import type { Db } from '../client';
import { NOT_EXCLUDED } from './packs-exclusions';
import { isNewestAnnotation, isNewestRuling } from './latest-revision';

export type LabelRow = { criterion: string; label: 'lose' | 'tie' | 'win'; screenChoice: 'r1' | 'tie' | 'r2' | null };

export const insertLabels = (db: Db, annotationId: number, rows: LabelRow[]) => {
  const stmt = db.$client.prepare('INSERT INTO labels (annotation_id, criterion, label, screen_choice) VALUES (?, ?, ?, ?)');
  for (const r of rows) stmt.run(annotationId, r.criterion, r.label, r.screenChoice);
};

export const labelsOf = (db: Db, annotationId: number) =>
  db.$client
    .prepare('SELECT criterion, label, screen_choice AS screenChoice FROM labels WHERE annotation_id = ?')
    .all(annotationId) as LabelRow[];

export const itemRow = (db: Db, itemId: number) =>
  db.$client
    .prepare(
      'SELECT id, study_id AS studyId, external_id AS externalId, position, payload, source_a AS sourceA, source_b AS sourceB FROM items WHERE id = ?',
    )
    .get(itemId) as
    | { id: number; studyId: number; externalId: string; position: number; payload: string; sourceA: string | null; sourceB: string | null }
    | undefined;

/**
 * The counting labels of every reviewer of one item: newest revision of each submitted assignment, by slot; an
 * excluded annotator's are left out (decision 0029), as the adjudicator's queue leaves them out.
 */
export const reviewerLabels = (db: Db, itemId: number) =>
  db.$client
    .prepare(
      `SELECT a.slot, a.user_id AS userId, l.criterion, l.label
         FROM assignments a
         JOIN annotations an ON an.assignment_id = a.id
          AND ${isNewestAnnotation()}
         JOIN labels l ON l.annotation_id = an.id
        WHERE a.item_id = ? AND a.state = 'submitted' AND ${NOT_EXCLUDED('a.user_id', 'a.study_id')}
        ORDER BY a.slot`,
    )
    .all(itemId) as { slot: number; userId: number; criterion: string; label: LabelRow['label'] }[];

/** The item's reviewer slots and their states; an excluded annotator's are left out (their labels would not count). */
export const assignmentStates = (db: Db, itemId: number) =>
  db.$client
    .prepare(`SELECT a.slot, a.state FROM assignments a WHERE a.item_id = ? AND ${NOT_EXCLUDED('a.user_id', 'a.study_id')} ORDER BY a.slot`)
    .all(itemId) as {
    slot: number;
    state: 'pending' | 'submitted';
  }[];

export const latestAdjudications = (db: Db, itemId: number) =>
  db.$client
    .prepare(
      `SELECT j.criterion, j.label, j.rationale, j.adjudicator_id AS adjudicatorId, j.revision
         FROM adjudications j
        WHERE j.item_id = ? AND ${isNewestRuling('adjudications')}`,
    )
    .all(itemId) as { criterion: string; label: LabelRow['label']; rationale: string | null; adjudicatorId: number; revision: number }[];

export const hasAdjudication = (db: Db, itemId: number) =>
  db.$client.prepare('SELECT 1 FROM adjudications WHERE item_id = ? LIMIT 1').pluck().get(itemId) === 1;

/** The ruling an adjudicator's request id wrote, if any (request ids are per person). */
export const adjudicationByRequest = (db: Db, adjudicatorId: number, requestId: string) =>
  db.$client
    .prepare('SELECT item_id AS itemId, request_hash AS requestHash FROM adjudications WHERE adjudicator_id = ? AND request_id = ? LIMIT 1')
    .get(adjudicatorId, requestId) as { itemId: number; requestHash: string | null } | undefined;

export function insertAdjudication(
  db: Db,
  a: {
    itemId: number;
    criterion: string;
    label: string;
    rationale: string | null;
    adjudicatorId: number;
    requestId: string;
    requestHash: string;
  },
) {
  const revision =
    (db.$client
      .prepare('SELECT coalesce(max(revision), 0) FROM adjudications WHERE item_id = ? AND criterion = ?')
      .pluck()
      .get(a.itemId, a.criterion) as number) + 1;
  db.$client
    .prepare(
      'INSERT INTO adjudications (item_id, criterion, revision, label, rationale, adjudicator_id, request_id, request_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(a.itemId, a.criterion, revision, a.label, a.rationale, a.adjudicatorId, a.requestId, a.requestHash);
}

/**
 * Every (item, criterion) of a study whose reviews are all in and whose reviewers did not all give the same label:
 * the labels given (comma-separated) and whether an adjudication exists. In item order. Excluded annotators' labels
 * (and their pending slots) are left out: an item split only by them is not disputed.
 */
export const splitCriteria = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `WITH latest AS (
         SELECT a.item_id, l.criterion, l.label
           FROM assignments a
           JOIN annotations an ON an.assignment_id = a.id
            AND ${isNewestAnnotation()}
           JOIN labels l ON l.annotation_id = an.id
          WHERE a.study_id = @studyId AND a.state = 'submitted' AND ${NOT_EXCLUDED('a.user_id', '@studyId')}),
       complete AS (
         SELECT item_id FROM assignments WHERE study_id = @studyId AND ${NOT_EXCLUDED('user_id', '@studyId')}
          GROUP BY item_id HAVING sum(state = 'pending') = 0)
       SELECT s.item_id AS itemId, i.position, s.criterion, s.labels,
              EXISTS (SELECT 1 FROM adjudications j WHERE j.item_id = s.item_id AND j.criterion = s.criterion) AS adjudicated
         FROM (SELECT item_id, criterion, group_concat(label) AS labels FROM latest
                WHERE item_id IN (SELECT item_id FROM complete)
                GROUP BY item_id, criterion HAVING count(DISTINCT label) > 1) s
         JOIN items i ON i.id = s.item_id
        ORDER BY i.position`,
    )
    .all({ studyId }) as { itemId: number; position: number; criterion: string; labels: string; adjudicated: 0 | 1 }[];

const LATEST_LABELS = `
  SELECT a.item_id, a.user_id, l.criterion, l.label
    FROM assignments a
    JOIN annotations an ON an.assignment_id = a.id
     AND ${isNewestAnnotation()}
    JOIN labels l ON l.annotation_id = an.id
   WHERE a.study_id = @studyId AND a.state = 'submitted'`;

/**
 * Per criterion, over every item with two or more current labels on it (as the agreement dashboard counts): how
 * many such items, on how many all labels agree, and the sum over those items of the share of agreeing pairs of
 * labels (its mean is the dashboard's percent agreement).
 */
export const rawAgreement = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `WITH per_label AS (SELECT item_id, criterion, label, count(*) AS c FROM (${LATEST_LABELS}) GROUP BY item_id, criterion, label),
            per AS (SELECT item_id, criterion, sum(c) AS n, count(*) AS distinctLabels, sum(c * (c - 1)) AS agreeingOrdered
                      FROM per_label GROUP BY item_id, criterion)
       SELECT criterion, count(*) AS items, sum(distinctLabels = 1) AS agreed,
              sum(CAST(agreeingOrdered AS REAL) / (n * (n - 1))) AS pairShareSum
         FROM per WHERE n >= 2 GROUP BY criterion`,
    )
    .all({ studyId }) as { criterion: string; items: number; agreed: number; pairShareSum: number }[];

/** Items per set (KMP scheme) and how many of them have every review in. */
export const setProgress = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT m.set_index AS setIndex, count(DISTINCT a.item_id) AS items,
              count(DISTINCT CASE WHEN NOT EXISTS (SELECT 1 FROM assignments p WHERE p.item_id = a.item_id AND p.state = 'pending') THEN a.item_id END) AS complete
         FROM assignments a JOIN study_members m ON m.study_id = a.study_id AND m.user_id = a.user_id
        WHERE a.study_id = @studyId AND m.set_index IS NOT NULL
        GROUP BY m.set_index ORDER BY m.set_index`,
    )
    .all({ studyId }) as { setIndex: number; items: number; complete: number }[];
