import type { Db } from '../client';

/*
 * Reads for the analytics use-cases. They return integer codes and indices, never statistics: the maths lives in
 * lib/stats. Items are addressed by their index in position order (0-based, dense), criteria by their index in
 * the list the caller passes, labels by their code in the declared order lose < tie < win (0, 1, 2).
 * A million labels must not become a million JavaScript rows: SQL packs the labels of one annotation (or one
 * item's verdicts) into one short string of character codes, and rows come back as arrays (`raw`).
 */

/** Items of a study in position order: the index of a row is the item's index in every other query. */
export const studyItems = (db: Db, studyId: number) =>
  db.$client.prepare('SELECT id, source_a AS sourceA FROM items WHERE study_id = ? ORDER BY position').all(studyId) as {
    id: number;
    sourceA: string | null;
  }[];

// Dense 0-based item index in position order. Each query starts from `idx` with a CROSS JOIN, which fixes it as
// the outer loop; everything else is then reached through indexes on item_id (otherwise the planner rescans
// `idx` for every label).
const IDX = `idx AS MATERIALIZED (SELECT id, row_number() OVER (ORDER BY position) - 1 AS i FROM items WHERE study_id = @studyId)`;

const LABEL_CODE = (column: string) => `(CASE ${column} WHEN 'lose' THEN 0 WHEN 'tie' THEN 1 ELSE 2 END)`;

/** `CASE column WHEN @c0 THEN 0 WHEN @c1 THEN 1 … ELSE -1 END` over bound parameters, and those parameters. */
function criterionCode(column: string, criteria: readonly string[]) {
  const sql = `(CASE ${column} ${criteria.map((_, k) => `WHEN @c${k} THEN ${k}`).join(' ')} ELSE -1 END)`;
  return { sql, params: Object.fromEntries(criteria.map((c, k) => [`c${k}`, c])) };
}

/**
 * The largest number of criteria the packed label strings below can carry: their characters stay below the UTF-16
 * surrogate range (code 48 + 6·C must be < 0xD800).
 */
export const MAX_PACKED_CRITERIA = 9000;

/**
 * The counting human labels (newest revision of each submitted assignment), one row per submitted assignment:
 * `[itemIndex, slot, packed]`. `packed` holds one character per label, whose code minus 48 is
 * 3 · criterionIndex + labelCode (criterion index into `criteria`, −1 for a criterion not in it; label code
 * lose 0, tie 1, win 2), or is null when the assignment has no labels. One short string per assignment instead of
 * one row per label keeps a million labels to tens of thousands of rows.
 */
export function humanLabelCodes(db: Db, studyId: number, criteria: readonly string[]): IterableIterator<[number, number, string | null]> {
  const crit = criterionCode('l.criterion', criteria);
  return db.$client
    .prepare(
      `WITH ${IDX}
       SELECT idx.i, a.slot,
              (SELECT group_concat(char(48 + 3 * ${crit.sql} + ${LABEL_CODE('l.label')}), '') FROM labels l WHERE l.annotation_id = an.id)
         FROM idx
        CROSS JOIN assignments a ON a.item_id = idx.id
         JOIN annotations an ON an.assignment_id = a.id
          AND an.revision = (SELECT max(revision) FROM annotations WHERE assignment_id = a.id)
        WHERE a.state = 'submitted'`,
    )
    .raw()
    .iterate({ studyId, ...crit.params }) as IterableIterator<[number, number, string | null]>;
}

/** Who holds each reviewer slot of each item among submitted assignments: `[itemIndex, slot, userId]`. */
export function submittedSlots(db: Db, studyId: number): [number, number, number][] {
  return db.$client
    .prepare(
      `WITH ${IDX}
       SELECT idx.i, a.slot, a.user_id FROM idx CROSS JOIN assignments a ON a.item_id = idx.id
        WHERE a.state = 'submitted'`,
    )
    .raw()
    .all({ studyId }) as [number, number, number][];
}

/** The people with a submitted assignment in the study, by username. */
export const submittedReviewers = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT DISTINCT u.id, u.username FROM assignments a JOIN users u ON u.id = a.user_id
        WHERE a.study_id = ? AND a.state = 'submitted' ORDER BY u.username`,
    )
    .all(studyId) as { id: number; username: string }[];

/** The judge runs of a study, by name. */
export const judgeRuns = (db: Db, studyId: number) =>
  db.$client.prepare('SELECT id, name FROM judge_runs WHERE study_id = ? ORDER BY name').all(studyId) as { id: number; name: string }[];

/** One judge run by name, with how many of its records had a verdict that could not be read. */
export const findJudgeRun = (db: Db, studyId: number, name: string) =>
  db.$client
    .prepare('SELECT id, name, json_array_length(unparsed) AS unparsed FROM judge_runs WHERE study_id = ? AND name = ?')
    .get(studyId, name) as { id: number; name: string; unparsed: number } | undefined;

/**
 * A judge run's verdicts, one row per item with any: `[itemIndex, packed]`, one character per verdict, whose code
 * minus 48 is 6 · criterionIndex + 3 · swapped + labelCode (swapped = 1 for a verdict given with the replies shown
 * in the order b, a; criterion index −1 for a criterion not in `criteria`).
 */
export function judgeLabelCodes(db: Db, studyId: number, runId: number, criteria: readonly string[]): IterableIterator<[number, string]> {
  const crit = criterionCode('j.criterion', criteria);
  return db.$client
    .prepare(
      `WITH ${IDX}
       SELECT i, packed FROM (
         SELECT idx.i AS i,
                (SELECT group_concat(char(48 + 6 * ${crit.sql} + 3 * j.swapped + ${LABEL_CODE('j.label')}), '')
                   FROM judge_labels j WHERE j.run_id = @runId AND j.item_id = idx.id) AS packed
           FROM idx)
        WHERE packed IS NOT NULL`,
    )
    .raw()
    .iterate({ studyId, runId, ...crit.params }) as IterableIterator<[number, string]>;
}
