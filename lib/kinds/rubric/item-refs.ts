import type { StudyRow } from '@/db/queries/studies';
import { reviewerSeed } from '@/lib/assign/groups';
import { mulberry32 } from '@/lib/assign/random';
import { notFound } from '@/lib/server/errors';

/*
 * The number by which an adjudicator of a rubric study names an item (in URLs, the queue's JSON and the rulings
 * they send back), instead of its row id. Row ids are handed out in file order, and a rubric file lists each
 * dialogue's tutors in a fixed order, so an id ranks a dialogue's replies by tutor (docs/decisions/0013).
 *
 * The number is a keyed permutation of the id: a four-round Feistel network over 30 bits whose round function is
 * drawn from the study's seed, id and creation time. It is a bijection, so it is decoded without a table and
 * without a schema change, the same on every request and in every process (web server, CLI, child). It is not
 * encryption: it only makes what people receive say nothing about where an item stood in the file.
 */

const HALF_BITS = 15;
const HALF = 1 << HALF_BITS;
const MASK = HALF - 1;
const ROUNDS = 4;
/** Ids from 1 to 2^30: more items than any study holds. */
const LIMIT = HALF * HALF;

type Keyed = Pick<StudyRow, 'id' | 'seed' | 'createdAt'>;

function keyOf(study: Keyed): number {
  return reviewerSeed(study.seed, study.id) ^ (study.createdAt.getTime() % 0x7fffffff);
}

function round(key: number, r: number, half: number): number {
  return Math.floor(mulberry32((key ^ Math.imul(r + 1, 0x9e3779b1) ^ Math.imul(half + 1, 0x85ebca6b)) >>> 0)() * HALF);
}

/** The item's number as an adjudicator of the study sees it (1 to 2^30). */
export function itemRefOf(study: Keyed, itemId: number): number {
  if (!Number.isInteger(itemId) || itemId < 1 || itemId > LIMIT) throw new Error(`item id ${itemId} is out of range`);
  const key = keyOf(study);
  let left = (itemId - 1) >>> HALF_BITS;
  let right = (itemId - 1) & MASK;
  for (let r = 0; r < ROUNDS; r++) [left, right] = [right, left ^ round(key, r, right)];
  return left * HALF + right + 1;
}

/** The item id behind an adjudicator's number; "not found" for a number that names nothing of the study's. */
export function itemIdOfRef(study: Keyed, ref: number): number {
  if (!Number.isInteger(ref) || ref < 1 || ref > LIMIT) throw notFound('That item');
  const key = keyOf(study);
  let left = (ref - 1) >>> HALF_BITS;
  let right = (ref - 1) & MASK;
  for (let r = ROUNDS - 1; r >= 0; r--) [left, right] = [right ^ round(key, r, left), left];
  return left * HALF + right + 1;
}
