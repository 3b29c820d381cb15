import 'server-only';
import * as z from 'zod';
import { getDb, type Db } from '@/db/client';
import * as detailQ from '@/db/queries/item-detail';
import * as rq from '@/db/queries/rubric-review';
import type { StudyRow } from '@/db/queries/studies';
import type { RubricDimension, RubricItem } from '@/lib/validation/rubric';
import type { Actor } from '../actor';
import { notFound } from '../errors';
import { lenientNames } from '@/lib/kinds/rubric/catalog';
import { rubricModelOfItem } from '../ground-truth/model-item';
import { MODEL, NO_RULING, decide, needsAdjudication, outcomeLabel, outcomeProvenance } from '../ground-truth/rule';
import { parseInput } from '../parse';
import { staffStudyOfKind } from '../review/access';
import { NO_REMARKS, flaggedFilter, flaggedItems, itemRemarksBySlot } from './item-remarks';
import { RUBRIC_ITEM_STATES, type RubricItemDetailDto, type RubricItemListDto, type RubricItemRowDto, type RubricItemState } from './dto';

export const RUBRIC_ITEMS_PAGE_SIZE = 50;

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

export const rubricItemFilterSchema = z.object({
  state: z.preprocess(
    blankToUndefined,
    z.enum(RUBRIC_ITEM_STATES, { error: `must be one of ${RUBRIC_ITEM_STATES.join(', ')}` }).optional(),
  ),
  q: z.preprocess(
    blankToUndefined,
    z.string({ error: 'must be one text' }).max(200, { error: 'must be at most 200 characters' }).optional(),
  ),
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

type ItemStateRow = Omit<RubricItemRowDto, 'planned'>;

/**
 * Where each rubric item stands, in position order: `waiting` (a review is missing), `labelled` (all in, the rule
 * settles every dimension), `disagreement` (a dimension needs a ruling and has none), `adjudicated` (every dimension
 * that needed a ruling has one). Decided by the one ground-truth rule, as the adjudication queue and the export.
 */
export function rubricItemStates(db: Db, study: StudyRow): ItemStateRow[] {
  const catalog = (study.criteria ?? []) as RubricDimension[];
  const ruled = new Set(rq.studyRubricRulings(db, study.id).map((r) => `${r.itemId}:${r.dimension}`));
  const out: ItemStateRow[] = [];
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

/** One page of a rubric study's items for its leads, filtered by state (disagreement, adjudicated, …) and by text. */
export function listRubricItems(actor: Actor, studyId: number, input: unknown): RubricItemListDto {
  const db = getDb();
  const study = staffStudyOfKind(db, actor, studyId, 'rubric', 'This list');
  const filter = parseInput(rubricItemFilterSchema, input);
  let rows = rubricItemStates(db, study);
  if (filter.q) {
    const ids = new Set(rq.rubricItemIdsMatching(db, studyId, filter.q));
    rows = rows.filter((r) => ids.has(r.itemId));
  }
  if (filter.flagged) {
    const flagged = flaggedItems(db, studyId);
    rows = rows.filter((r) => flagged.has(r.itemId));
  }
  const byState = Object.fromEntries(RUBRIC_ITEM_STATES.map((s) => [s, 0])) as Record<RubricItemState, number>;
  for (const r of rows) byState[r.state]++;
  if (filter.state) rows = rows.filter((r) => r.state === filter.state);
  const total = rows.length;
  const pages = Math.max(1, Math.ceil(total / RUBRIC_ITEMS_PAGE_SIZE));
  const page = Math.min(filter.page ?? 1, pages);
  const planned = new Map(rq.plannedByItem(db, studyId).map((p) => [p.itemId, p.n]));
  const shown = rows.slice((page - 1) * RUBRIC_ITEMS_PAGE_SIZE, page * RUBRIC_ITEMS_PAGE_SIZE).map((r) => ({
    ...r,
    planned: planned.get(r.itemId) ?? (study.status === 'draft' ? study.reviewersPerItem : 0),
  }));
  return { total, byState, page, pages, pageSize: RUBRIC_ITEMS_PAGE_SIZE, rows: shown };
}

/** Each reviewer's submitted revisions of an item (by slot), oldest first, with their labels by dimension name. */
function rubricRevisions(db: Db, itemId: number, catalog: RubricDimension[]) {
  const labels = new Map<number, Record<string, string>>();
  for (const l of rq.rubricRevisionLabels(db, itemId)) {
    const d = catalog[l.dimension];
    if (!d) continue;
    const of = labels.get(l.annotationId) ?? {};
    of[d.name] = d.labels[l.label] ?? '?';
    labels.set(l.annotationId, of);
  }
  const bySlot = new Map<number, { revision: number; at: string; labels: Record<string, string> }[]>();
  for (const r of detailQ.itemRevisions(db, itemId)) {
    if (r.annotationId === null) continue;
    const list = bySlot.get(r.slot) ?? [];
    list.push({ revision: r.revision!, at: new Date(r.createdAt!).toISOString(), labels: labels.get(r.annotationId) ?? {} });
    bySlot.set(r.slot, list);
  }
  return bySlot;
}

/** One rubric item for its study's leads: the reply and its source, each reviewer's labels, rulings, ground truth, judges. */
export function getRubricItem(actor: Actor, studyId: number, itemId: number): RubricItemDetailDto {
  const db = getDb();
  const study = staffStudyOfKind(db, actor, studyId, 'rubric', 'That item', 'notFound');
  const row = rq.rubricItemRow(db, itemId);
  if (!row || row.studyId !== studyId) throw notFound('That item');
  const item = JSON.parse(row.payload) as RubricItem;
  const catalog = (study.criteria ?? []) as RubricDimension[];
  const remarks = itemRemarksBySlot(db, itemId);
  const revisions = rubricRevisions(db, itemId, catalog);
  const reviewers = rq
    .rubricReviewers(db, itemId)
    .map((r) => ({ ...r, remarks: remarks.get(r.slot) ?? NO_REMARKS, revisions: revisions.get(r.slot) ?? [] }));
  const { previous, next } = detailQ.neighbourItems(db, studyId, row.position);
  const slotIndex = new Map(reviewers.map((r, i) => [r.slot, i]));
  const labels = catalog.map(() => Array<number>(reviewers.length).fill(-1));
  for (const l of rq.rubricLabelsWithReviewers(db, itemId)) {
    const i = slotIndex.get(l.slot);
    if (i !== undefined && l.dimension < catalog.length) labels[l.dimension][i] = l.label;
  }
  const rulings = new Map(rq.latestRubricRulings(db, itemId).map((r) => [r.dimension, r]));
  const verdicts = rq.rubricJudgeVerdicts(db, itemId);
  const complete = reviewers.length > 0 && reviewers.every((r) => r.state === 'submitted');
  // Under a label model (dawid_skene, mace) a dimension's label is the whole study's fit, with its posterior (0041).
  const model = complete ? rubricModelOfItem(db, study, itemId) : null;
  return {
    itemId,
    studyId,
    studyName: study.name,
    position: row.position,
    previousId: previous,
    nextId: next,
    externalId: row.externalId,
    group: row.groupKey,
    source: row.source,
    problem: item.problem ?? null,
    history: item.history ?? [],
    reply: item.reply?.text ?? null,
    reviewers,
    dimensions: catalog.map((d, k) => {
      const votes = labels[k];
      const ruling = rulings.get(k);
      const open = needsAdjudication(decide(votes, 0, votes.length, NO_RULING, study.groundTruthRule, d.labels.length));
      const outcome = decide(votes, 0, votes.length, ruling ? ruling.label : NO_RULING, study.groundTruthRule, d.labels.length);
      const modelled = complete && outcome === MODEL ? model?.get(d.id) : undefined;
      const provenance = modelled ? modelled.rule : complete ? outcomeProvenance(outcome) : null;
      const code = modelled ? modelled.code : outcomeLabel(outcome);
      return {
        id: d.id,
        name: d.name,
        labels: votes.map((v) => (v >= 0 ? d.labels[v] : null)),
        needsAdjudication: complete && open,
        ruling: ruling ? { label: d.labels[ruling.label], rationale: ruling.rationale, adjudicator: ruling.adjudicator } : null,
        final: provenance
          ? { label: d.labels[code], lenient: lenientNames(d)[code], provenance, ...(modelled ? { posterior: modelled.posterior } : {}) }
          : null,
        judges: verdicts
          .filter((v) => v.dimension === k)
          .map((v) => ({ run: v.run, sample: v.sample, label: d.labels[v.label] ?? '?', rationale: v.rationale })),
      };
    }),
  };
}
