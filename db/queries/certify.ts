import type { Db } from '../client';
import { isNewestAnnotation, isNewestRuling } from './latest-revision';

/*
 * Reads for judge certification and the bias report: when each item's ground truth could first be settled, the
 * order each reviewer saw the replies in, and the replies' lengths. Codes, numbers and timestamps only; the statistics live
 * in lib/stats.
 */

/**
 * Per item, when its last counting review was made: the creation time of the newest revision of every submitted
 * assignment, maximised over the item's reviewers (`[itemId, createdAtMs]`).
 */
export const lastReviewTimes = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT a.item_id, max(n.created_at)
         FROM assignments a
         JOIN annotations n ON n.assignment_id = a.id
          AND ${isNewestAnnotation('n', 'a')}
        WHERE a.study_id = ? AND a.state = 'submitted'
        GROUP BY a.item_id`,
    )
    .raw()
    .all(studyId) as [number, number][];

/** The newest ruling per (item, criterion) and when it was made (`[itemId, criterion, createdAtMs]`). */
export const rulingTimes = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT j.item_id, j.criterion, j.created_at
         FROM adjudications j JOIN items i ON i.id = j.item_id
        WHERE i.study_id = ?
          AND ${isNewestRuling('adjudications')}`,
    )
    .raw()
    .all(studyId) as [number, string, number][];

/** The newest ruling per (item, dimension) of a rubric study and when it was made (`[itemId, dimension, createdAtMs]`). */
export const rubricRulingTimes = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT j.item_id, j.dimension, j.created_at
         FROM rubric_adjudications j JOIN items i ON i.id = j.item_id
        WHERE i.study_id = ?
          AND ${isNewestRuling('rubric_adjudications')}`,
    )
    .raw()
    .all(studyId) as [number, number, number][];

/**
 * The display order of every submitted assignment whose counting annotation (its newest revision) was given on
 * Concord's review screen, as one text: `item,slot,swapped` joined by `/` (`swapped` = 1: b was shown as
 * Response 1). Imported prior annotations carry no display order (their labels have no `screen_choice`) and are
 * left out. A submission from the screen carries its request's hash (migration 0008), so only annotations without
 * one (imported, or older than 0008) need a look at a label. One string per study instead of a row per label: the labels themselves come from the packs.
 */
export const displayOrderText = (db: Db, studyId: number) =>
  (db.$client
    .prepare(
      `SELECT group_concat(a.item_id || ',' || a.slot || ',' || a.swapped, '/')
         FROM assignments a
        WHERE a.study_id = ? AND a.state = 'submitted'
          AND (SELECT n.request_hash IS NOT NULL
                      OR (SELECT l.screen_choice IS NOT NULL FROM labels l WHERE l.annotation_id = n.id LIMIT 1)
                 FROM annotations n
                WHERE n.assignment_id = a.id
                ORDER BY n.revision DESC LIMIT 1)`,
    )
    .pluck()
    .get(studyId) as string | null) ?? '';

/**
 * Each item's reply lengths in characters, as one text `item,lengthA,lengthB/…` (−1 where a reply has no text),
 * from `item_reply_lengths` (written with each item, migrations 0013 and 0018; a rubric item's one reply is
 * `lengthA`): no payload is read.
 */
export const replyLengthText = (db: Db, studyId: number) =>
  (db.$client
    .prepare(
      `SELECT group_concat(item_id || ',' || ifnull(length_a, -1) || ',' || ifnull(length_b, -1), '/')
         FROM item_reply_lengths WHERE study_id = ?`,
    )
    .pluck()
    .get(studyId) as string | null) ?? '';

/** Each item's id and external id (`[itemId, externalId]`). */
export const externalIds = (db: Db, studyId: number) =>
  db.$client.prepare('SELECT id, external_id FROM items WHERE study_id = ?').raw().all(studyId) as [number, string][];
