import type { Db } from '../client';
import { NOT_EXCLUDED } from './packs-exclusions';

/*
 * Reads of the packed labels (db/schema/packs.ts, migration 0007): one short string per annotation, per judged item and
 * per adjudicated item, each character standing for one label. Even one row per annotation costs more in the
 * driver (a JavaScript array per row) than in SQLite, so SQLite joins the rows of a range of items into one text:
 * each row's `segment` (`/itemId,field,….packed`, stored with the pack), in no particular order (readers must not
 * rely on it).
 * The three markers sit below every packed character (code ≥ 48), and the digits only come between `/` and `.`.
 *
 * The annotations of an annotator excluded from the study (`annotator_exclusions`, decision 0029) are left out here,
 * the one place every reader of the reviewers' labels goes through (ground truth, agreement, alignment, leaderboards,
 * the adjudication queue): to them the excluded annotator's slots are empty.
 */

/** Starts a segment (`/`), separates its numbers (`,`), and starts its packed labels (`.`). */
export const SEGMENT = 47;
export const FIELD = 44;
export const BODY = 46;

/** The study's criterion dictionary: `names[code]` is the criterion with that code. */
export function criterionNames(db: Db, studyId: number): string[] {
  const names: string[] = [];
  for (const [code, criterion] of db.$client
    .prepare('SELECT code, criterion FROM criterion_codes WHERE study_id = ?')
    .raw()
    .iterate(studyId) as IterableIterator<[number, string]>) {
    names[code] = criterion;
  }
  return names;
}

const text = (db: Db, sql: string, key: number, fromItem: number, toItem: number) =>
  (db.$client.prepare(sql).pluck().get(key, fromItem, toItem) as string | null) ?? '';

/**
 * The annotations of the study's items `fromItem..toItem` (ids), every revision: segments of item id, slot,
 * revision and reviewer (the assignment's user), then the labels (code − 48 = 3 · criterion code + label code;
 * empty when the annotation has none). Excluded annotators' annotations are left out (one slot holds one user,
 * so no older revision of someone else's comes up in their place).
 */
export const annotationPackText = (db: Db, studyId: number, fromItem: number, toItem: number) =>
  (db.$client
    .prepare(
      `SELECT group_concat(segment, '')
         FROM annotation_packs WHERE study_id = ? AND item_id BETWEEN ? AND ? AND ${NOT_EXCLUDED('user_id')}`,
    )
    .pluck()
    .get(studyId, fromItem, toItem, studyId) as string | null) ?? '';

/** A judge run's verdicts on items `fromItem..toItem`: segments of item id, then code − 48 = 6 · criterion code + 3 · swapped + label code. */
export const judgeLabelPackText = (db: Db, runId: number, fromItem: number, toItem: number) =>
  text(
    db,
    `SELECT group_concat(segment, '')
       FROM judge_label_packs WHERE run_id = ? AND item_id BETWEEN ? AND ?`,
    runId,
    fromItem,
    toItem,
  );

/** The newest ruling on each adjudicated criterion of items `fromItem..toItem`: segments of item id, then code − 48 = 3 · criterion code + label code. */
export const adjudicationPackText = (db: Db, studyId: number, fromItem: number, toItem: number) =>
  text(
    db,
    `SELECT group_concat(segment, '')
       FROM adjudication_packs WHERE study_id = ? AND item_id BETWEEN ? AND ?`,
    studyId,
    fromItem,
    toItem,
  );

/**
 * Reviewer slots still pending, `[itemId, slot]`: their annotations (an undone submission) do not count. An
 * excluded annotator's pending slots are left out too: the ground truth does not wait for labels it would not count.
 */
export const pendingSlots = (db: Db, studyId: number) =>
  db.$client
    .prepare(`SELECT item_id, slot FROM assignments WHERE study_id = ? AND state = 'pending' AND ${NOT_EXCLUDED('user_id')}`)
    .raw()
    .all(studyId, studyId) as [number, number][];

/** Usernames of the given user ids. */
export const usernames = (db: Db, ids: readonly number[]) =>
  db.$client.prepare('SELECT id, username FROM users WHERE id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(ids)) as [
    number,
    string,
  ][];
