import 'server-only';
import * as z from 'zod';
import { getDb, type Db } from '@/db/client';
import * as itemsQ from '@/db/queries/items';
import * as packs from '@/db/queries/packs';
import { runOverallVerdicts } from '@/db/queries/item-detail';
import { judgeRunSummaries } from '@/db/queries/judge-runs';
import type { StudyRow } from '@/db/queries/studies';
import { OVERALL } from '@/lib/validation/common';
import type { Label } from '@/lib/validation/labels';
import type { Criterion } from '@/lib/validation/pairwise';
import type { Actor } from '../actor';
import { staffStudyOfKind } from '../review/access';
import { invalid } from '../errors';
import { groundTruthCodes, reviewerCodes } from '../ground-truth/ground-truth-codes';
import { NO_RULING, decide, needsAdjudication } from '../ground-truth/rule';
import { ItemIndex } from '../packs/item-index';
import { parseInput } from '../parse';
import { flaggedFilter, flaggedItems } from './item-remarks';
import { ITEM_STATES, type ItemState, type PairwiseItemListDto, type PairwiseItemRowDto } from './dto';

/**
 * Where a pairwise item stands: `waiting` for a review (or never assigned), `judged` (all reviews in, nothing for
 * the adjudicator), `disagreement` (all in, a criterion still needs a ruling), `adjudicated` (every criterion that
 * needed a ruling has one).
 */

export const ITEMS_PAGE_SIZE = 50;

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** The list's filters, as they arrive from the page's URL. */
export const itemListFilterSchema = z.object({
  state: z.preprocess(blankToUndefined, z.enum(ITEM_STATES, { error: `must be one of ${ITEM_STATES.join(', ')}` }).optional()),
  q: z.preprocess(
    blankToUndefined,
    z.string({ error: 'must be one text' }).max(200, { error: 'must be at most 200 characters' }).optional(),
  ),
  /** A judge run's name: only items where its overall verdict differs from the ground truth. */
  judge: z.preprocess(
    blankToUndefined,
    z.string({ error: 'must be one judge run name' }).max(200, { error: 'must be at most 200 characters' }).optional(),
  ),
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

const LABELS: readonly Label[] = ['lose', 'tie', 'win'];
const WAITING = 0;
const JUDGED = 1;
const DISAGREEMENT = 2;
const ADJUDICATED = 3;

/**
 * The state and ground-truth overall label of every item of the study, by item rank (position order), from one
 * read of the packed labels: the same reading and rules as the ground-truth export (`groundTruthCodes`), so this
 * list and the export always agree on which items are complete.
 */
export function pairwiseItemStates(db: Db, study: StudyRow): { items: ItemIndex; state: Uint8Array; overall: Int8Array } {
  // Every criterion the study's labels use, so none is read apart as "other" (catalog order first, then overall).
  const criteria = [...((study.criteria ?? []) as Criterion[]).map((c) => c.id), OVERALL];
  for (const name of packs.criterionNames(db, study.id)) if (name !== undefined && !criteria.includes(name)) criteria.push(name);
  // Every item, gold ones too: the lead's list shows them (the default index leaves gold items out, decision 0030).
  const read = reviewerCodes(db, study, criteria, new ItemIndex(itemsQ.itemIdsInOrder(db, study.id)));
  const gt = groundTruthCodes(db, study, criteria, read);
  const { n, slots: S, given, hasLabels, pending } = read;
  const C = criteria.length;
  const rule = study.groundTruthRule;
  const overallIndex = criteria.indexOf(OVERALL);
  const state = new Uint8Array(n);
  const overall = new Int8Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    overall[i] = gt.gold[overallIndex * n + i];
    if (pending[i] || !hasLabels[i]) {
      state[i] = WAITING;
      continue;
    }
    // The first criterion that needs an adjudicator under the study's rule, if any.
    let disputed = -1;
    for (let c = 0; c < C && disputed < 0; c++) {
      if (needsAdjudication(decide(given, (c * n + i) * S, S, NO_RULING, rule))) disputed = c;
    }
    // A complete item has ground truth on every labelled criterion; an incomplete one on none.
    state[i] = disputed < 0 ? JUDGED : gt.gold[disputed * n + i] >= 0 ? ADJUDICATED : DISAGREEMENT;
  }
  return { items: read.items, state, overall };
}

/**
 * One page of a pairwise study's items for its leads, filtered by state, by text in the item id, and to the items
 * where a judge run's overall verdict differs from the ground truth, and to the items a reviewer flagged.
 */
export function listPairwiseItems(actor: Actor, studyId: number, input: unknown): PairwiseItemListDto {
  const db = getDb();
  const study = staffStudyOfKind(db, actor, studyId, 'pairwise', 'This list');
  const filter = parseInput(itemListFilterSchema, input);
  const { items, state, overall } = pairwiseItemStates(db, study);

  let ranks: number[];
  if (filter.q) {
    ranks = itemsQ
      .itemIdsMatching(db, studyId, filter.q)
      .map((id) => items.of(id))
      .filter((r) => r >= 0)
      .sort((a, b) => a - b);
  } else {
    ranks = Array.from({ length: items.n }, (_, r) => r);
  }
  if (filter.flagged) {
    const flagged = flaggedItems(db, studyId);
    ranks = ranks.filter((r) => flagged.has(items.ids[r]));
  }
  let judgeVerdict: Map<number, Label> | null = null;
  if (filter.judge) {
    if (!judgeRunSummaries(db, studyId).some((r) => r.name === filter.judge)) {
      throw invalid(`No judge run named "${filter.judge}" in this study.`, { judge: 'Unknown judge run' });
    }
    judgeVerdict = new Map(runOverallVerdicts(db, studyId, filter.judge).map((v) => [v.itemId, v.label]));
    // Items with a ground-truth overall label and a verdict of this run that differs from it.
    ranks = ranks.filter((r) => {
      const verdict = judgeVerdict!.get(items.ids[r]);
      return overall[r] >= 0 && verdict !== undefined && verdict !== LABELS[overall[r]];
    });
  }
  const byState = Object.fromEntries(ITEM_STATES.map((s) => [s, 0])) as Record<ItemState, number>;
  for (const r of ranks) byState[ITEM_STATES[state[r]]]++;
  if (filter.state) {
    const code = ITEM_STATES.indexOf(filter.state);
    ranks = ranks.filter((r) => state[r] === code);
  }

  const total = ranks.length;
  const pages = Math.max(1, Math.ceil(total / ITEMS_PAGE_SIZE));
  const page = Math.min(filter.page ?? 1, pages);
  const shown = ranks.slice((page - 1) * ITEMS_PAGE_SIZE, page * ITEMS_PAGE_SIZE);
  const ids = shown.map((r) => items.ids[r]);
  const rowById = new Map(itemsQ.itemRows(db, ids).map((r) => [r.id, r]));
  const countsById = new Map(itemsQ.judgmentCounts(db, ids).map((c) => [c.itemId, c]));
  const rows = shown.flatMap((r): PairwiseItemRowDto[] => {
    const row = rowById.get(items.ids[r]);
    if (!row) return []; // removed since the states were read
    const counts = countsById.get(row.id);
    return [
      {
        itemId: row.id,
        externalId: row.externalId,
        principles: principlesOf(row.principles),
        sourceA: row.sourceA,
        sourceB: row.sourceB,
        done: counts?.done ?? 0,
        planned: counts?.planned ?? (study.status === 'draft' ? study.reviewersPerItem : 0),
        state: ITEM_STATES[state[r]],
        overall: overall[r] >= 0 ? LABELS[overall[r]] : null,
        judgeOverall: judgeVerdict?.get(row.id) ?? null,
      },
    ];
  });
  return { total, byState, page, pages, pageSize: ITEMS_PAGE_SIZE, rows };
}

function principlesOf(json: string | null): string[] {
  if (!json) return [];
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
}
