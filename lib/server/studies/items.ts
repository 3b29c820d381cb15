import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { staffStudyOfKind } from '../review/access';
import { flaggedFilter, flaggedItems } from './item-remarks';
import { ITEMS_BY_KIND, type ItemListKind, type ItemListOf } from './items-by-kind';

/*
 * A study's items for its leads, one page at a time, for every kind with an item list: the filters by state, by
 * text, by a reviewer's flag (and the kind's own, as a pairwise study's judge filter), the counts by state and the
 * paging are written here once; how an item's state is read, which states there are and what a row shows are the
 * kind's (`items-by-kind.ts`).
 */

export const ITEMS_PAGE_SIZE = 50;

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** The list's filters, as they arrive from the page's URL: the kind's states and its own filters between text and flag. */
function filterSchema(states: readonly [string, ...string[]], own: z.ZodRawShape) {
  return z.object({
    state: z.preprocess(blankToUndefined, z.enum(states, { error: `must be one of ${states.join(', ')}` }).optional()),
    q: z.preprocess(
      blankToUndefined,
      z.string({ error: 'must be one text' }).max(200, { error: 'must be at most 200 characters' }).optional(),
    ),
    ...own,
    /** Only items a reviewer has flagged. */
    flagged: flaggedFilter,
    page: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: 'must be a page number' })
        .int({ error: 'must be a whole number' })
        .min(1, { error: 'must be 1 or more' })
        .optional(),
    ),
  });
}

/**
 * One page of the study's items, filtered by state, by text in the item id (and, per kind, its source), by the
 * kind's own filters and to the items a reviewer flagged; `byState` counts what the other filters leave, so the
 * state filter can show what each choice holds. A study of another kind is refused.
 */
export function listItems<K extends ItemListKind>(actor: Actor, studyId: number, kind: K, input: unknown): ItemListOf[K] {
  const db = getDb();
  const part = ITEMS_BY_KIND[kind];
  const study = staffStudyOfKind(db, actor, studyId, kind, 'This list');
  const filter = parseInput(filterSchema(part.states, part.filters), input);
  const read = part.read(db, study);
  const { ids, state } = read;

  let ranks = Array.from({ length: ids.length }, (_, r) => r);
  if (filter.q) {
    const matching = new Set(part.matching(db, studyId, filter.q));
    ranks = ranks.filter((r) => matching.has(ids[r]));
  }
  if (filter.flagged) {
    const flagged = flaggedItems(db, studyId);
    ranks = ranks.filter((r) => flagged.has(ids[r]));
  }
  if (read.narrow) ranks = read.narrow(filter, ranks);
  const byState = Object.fromEntries(part.states.map((s) => [s, 0])) as Record<string, number>;
  for (const r of ranks) byState[part.states[state[r]]]++;
  if (filter.state) {
    const code = part.states.indexOf(filter.state);
    ranks = ranks.filter((r) => state[r] === code);
  }

  const total = ranks.length;
  const pages = Math.max(1, Math.ceil(total / ITEMS_PAGE_SIZE));
  const page = Math.min(filter.page ?? 1, pages);
  const rows = read.rows(ranks.slice((page - 1) * ITEMS_PAGE_SIZE, page * ITEMS_PAGE_SIZE));
  return { total, byState, page, pages, pageSize: ITEMS_PAGE_SIZE, rows } as ItemListOf[K];
}

/** The items of a pairwise study, with the filter to the items where a judge run's overall verdict differs from the ground truth. */
export const listPairwiseItems = (actor: Actor, studyId: number, input: unknown) => listItems(actor, studyId, 'pairwise', input);

/** The items of a rubric study. */
export const listRubricItems = (actor: Actor, studyId: number, input: unknown) => listItems(actor, studyId, 'rubric', input);
