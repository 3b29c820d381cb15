import type { Db } from '../client';

/*
 * The annotator quality report's read (issue 27): every counting annotation of a study — the newest revision of
 * each submitted assignment — with who gave it, its active time and when it was submitted, and its packed labels.
 * Unlike `./packs.ts` it keeps excluded annotators' annotations: the report still lists them (marked excluded)
 * and leaves them out of its aggregates itself.
 */

/** One counting annotation: `packed` as in annotation_packs (one character per label; '' without labels). */
export type AnnotatorPackRow = {
  itemId: number;
  slot: number;
  userId: number;
  username: string;
  activeMs: number;
  submittedAt: number | null;
  packed: string;
};

/** The study's counting annotations, per annotator in the order they submitted them. */
export const annotatorPacks = (db: Db, studyId: number) =>
  db.$client
    .prepare(
      `SELECT a.item_id AS itemId, a.slot, a.user_id AS userId, u.username, a.active_ms AS activeMs,
              a.submitted_at AS submittedAt,
              coalesce((SELECT p.packed FROM annotation_packs p
                         WHERE p.study_id = a.study_id AND p.item_id = a.item_id AND p.slot = a.slot
                         ORDER BY p.revision DESC LIMIT 1), '') AS packed
         FROM assignments a JOIN users u ON u.id = a.user_id
        WHERE a.study_id = ? AND a.state = 'submitted'
        ORDER BY u.username, a.submitted_at, a.id`,
    )
    .all(studyId) as AnnotatorPackRow[];
