import 'server-only';
import * as z from 'zod';
import type { Db } from '@/db/client';
import { runOverallVerdicts } from '@/db/queries/item-detail';
import * as itemsQ from '@/db/queries/items';
import { judgeRunSummaries } from '@/db/queries/judge-runs';
import * as packs from '@/db/queries/packs';
import * as rq from '@/db/queries/rubric-review';
import type { StudyRow } from '@/db/queries/studies';
import { OVERALL } from '@/lib/validation/common';
import type { Label } from '@/lib/validation/labels';
import type { Criterion } from '@/lib/validation/pairwise';
import type { RubricDimension } from '@/lib/validation/rubric';
import { invalid } from '../errors';
import { groundTruthCodes, reviewerCodes } from '../ground-truth/ground-truth-codes';
import { NO_RULING, decide, needsAdjudication } from '../ground-truth/rule';
import { ItemIndex } from '../packs/item-index';
import {
  ITEM_STATES,
  RUBRIC_ITEM_STATES,
  type PairwiseItemListDto,
  type PairwiseItemRowDto,
  type RubricItemListDto,
  type RubricItemRowDto,
  type RubricItemState,
} from './dto';

/*
 * What the item list (`items.ts`) asks of each kind: its states, its own filters, where every item stands (one
 * read of the study, by the one ground-truth rule as the export and the adjudication queue) and what a row shows.
 */

/** The list each kind answers. */
export type ItemListOf = { pairwise: PairwiseItemListDto; rubric: RubricItemListDto };
export type ItemListKind = keyof ItemListOf;

/** One read of the study's items: ids in position order, each one's state (index in the kind's states). */
export type ItemsRead<K extends ItemListKind> = {
  ids: readonly number[];
  state: Uint8Array;
  /** The kind's own filters on the item ranks the text and flag filters left (refusing a value that names nothing). */
  narrow?(filter: Record<string, unknown>, ranks: number[]): number[];
  /** The rows of the items at these ranks, as the page shows them. */
  rows(ranks: number[]): ItemListOf[K]['rows'];
};

export type ItemsPart<K extends ItemListKind> = {
  states: readonly [string, ...string[]];
  /** Filters of this kind beside state, text, flag and page, as zod fields. */
  filters: z.ZodRawShape;
  read(db: Db, study: StudyRow): ItemsRead<K>;
  /** The ids of the items whose text matches `q`. */
  matching(db: Db, studyId: number, q: string): readonly number[];
};

/* ----- pairwise: waiting, judged, disagreement, adjudicated ----- */

const LABELS: readonly Label[] = ['lose', 'tie', 'win'];
const WAITING = 0;
const JUDGED = 1;
const DISAGREEMENT = 2;
const ADJUDICATED = 3;

/**
 * The state and ground-truth overall label of every item of the study, by item rank (position order), from one
 * read of the packed labels: the same reading and rules as the ground-truth export (`groundTruthCodes`), so this
 * list and the export always agree on which items are complete. `waiting` for a review (or never assigned),
 * `judged` (all reviews in, nothing for the adjudicator), `disagreement` (all in, a criterion still needs a ruling),
 * `adjudicated` (every criterion that needed a ruling has one).
 */
function pairwiseItemStates(db: Db, study: StudyRow): { items: ItemIndex; state: Uint8Array; overall: Int8Array } {
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

function principlesOf(json: string | null): string[] {
  if (!json) return [];
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
}

const pairwise: ItemsPart<'pairwise'> = {
  states: ITEM_STATES,
  filters: {
    /** A judge run's name: only items where its overall verdict differs from the ground truth. */
    judge: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.string({ error: 'must be one judge run name' }).max(200, { error: 'must be at most 200 characters' }).optional(),
    ),
  },
  matching: (db, studyId, q) => itemsQ.itemIdsMatching(db, studyId, q),
  read(db, study) {
    const { items, state, overall } = pairwiseItemStates(db, study);
    let judgeVerdict: Map<number, Label> | null = null;
    return {
      ids: items.ids,
      state,
      narrow(filter, ranks) {
        const judge = filter.judge;
        if (typeof judge !== 'string') return ranks;
        if (!judgeRunSummaries(db, study.id).some((r) => r.name === judge)) {
          throw invalid(`No judge run named "${judge}" in this study.`, { judge: 'Unknown judge run' });
        }
        const verdicts = new Map(runOverallVerdicts(db, study.id, judge).map((v) => [v.itemId, v.label]));
        judgeVerdict = verdicts;
        // Items with a ground-truth overall label and a verdict of this run that differs from it.
        return ranks.filter((r) => {
          const verdict = verdicts.get(items.ids[r]);
          return overall[r] >= 0 && verdict !== undefined && verdict !== LABELS[overall[r]];
        });
      },
      rows(ranks) {
        const ids = ranks.map((r) => items.ids[r]);
        const rowById = new Map(itemsQ.itemRows(db, ids).map((r) => [r.id, r]));
        const countsById = new Map(itemsQ.judgmentCounts(db, ids).map((c) => [c.itemId, c]));
        return ranks.flatMap((r): PairwiseItemRowDto[] => {
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
      },
    };
  },
};

/* ----- rubric: waiting, labelled, disagreement, adjudicated ----- */

type RubricStateRow = Omit<RubricItemRowDto, 'planned'>;

/**
 * Where each rubric item stands, in position order: `waiting` (a review is missing), `labelled` (all in, the rule
 * settles every dimension), `disagreement` (a dimension needs a ruling and has none), `adjudicated` (every dimension
 * that needed a ruling has one). Decided by the one ground-truth rule, as the adjudication queue and the export.
 */
function rubricItemStates(db: Db, study: StudyRow): RubricStateRow[] {
  const catalog = (study.criteria ?? []) as RubricDimension[];
  const ruled = new Set(rq.studyRubricRulings(db, study.id).map((r) => `${r.itemId}:${r.dimension}`));
  const out: RubricStateRow[] = [];
  let cur: { row: rq.RubricLabelStreamRow; slots: number[]; codes: Map<number, number>[] } | null = null;
  const finish = () => {
    if (!cur) return;
    const { row, slots, codes } = cur;
    let state: RubricItemState = 'waiting';
    let disputed = 0;
    let open = 0;
    if (row.pending === 0 && slots.length > 0) {
      catalog.forEach((d, k) => {
        const votes = slots.map((s) => codes[k].get(s) ?? -1);
        if (needsAdjudication(decide(votes, 0, votes.length, NO_RULING, study.groundTruthRule, d.labels.length))) {
          disputed++;
          if (!ruled.has(`${row.itemId}:${k}`)) open++;
        }
      });
      state = disputed === 0 ? 'labelled' : open > 0 ? 'disagreement' : 'adjudicated';
    }
    out.push({
      itemId: row.itemId,
      externalId: row.externalId,
      group: row.groupKey,
      source: row.source,
      done: slots.length,
      state,
      disputed,
    });
  };
  for (const r of rq.iterateRubricLabels(db, study.id)) {
    if (!cur || cur.row.itemId !== r.itemId) {
      finish();
      cur = { row: r, slots: [], codes: catalog.map(() => new Map<number, number>()) };
    }
    if (r.slot === null || r.dimension === null || r.label === null || r.dimension >= catalog.length) continue;
    if (!cur.slots.includes(r.slot)) cur.slots.push(r.slot);
    cur.codes[r.dimension].set(r.slot, r.label);
  }
  finish();
  return out;
}

const rubric: ItemsPart<'rubric'> = {
  states: RUBRIC_ITEM_STATES,
  filters: {},
  matching: (db, studyId, q) => rq.rubricItemIdsMatching(db, studyId, q),
  read(db, study) {
    const items = rubricItemStates(db, study);
    return {
      ids: items.map((r) => r.itemId),
      state: Uint8Array.from(items, (r) => RUBRIC_ITEM_STATES.indexOf(r.state)),
      rows(ranks) {
        const planned = new Map(rq.plannedByItem(db, study.id).map((p) => [p.itemId, p.n]));
        return ranks.map((r) => ({
          ...items[r],
          planned: planned.get(items[r].itemId) ?? (study.status === 'draft' ? study.reviewersPerItem : 0),
        }));
      },
    };
  },
};

/** The one place the item list looks a kind up; the caller names the kind, so a study of another is refused. */
export const ITEMS_BY_KIND: { [K in ItemListKind]: ItemsPart<K> } = { pairwise, rubric };
