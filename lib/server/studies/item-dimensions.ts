import 'server-only';
import { getDb, type Db } from '@/db/client';
import * as detailQ from '@/db/queries/item-detail';
import * as rq from '@/db/queries/rubric-review';
import type { RubricDimension, RubricItem } from '@/lib/validation/rubric';
import type { Actor } from '../actor';
import { notFound } from '../errors';
import { lenientNames } from '@/lib/kinds/rubric/catalog';
import { rubricModelOfItem } from '../ground-truth/model-item';
import { MODEL, NO_RULING, decide, needsAdjudication, outcomeLabel, outcomeProvenance } from '../ground-truth/rule';
import { staffStudyOfKind } from '../review/access';
import { NO_REMARKS, itemRemarksBySlot } from './item-remarks';
import type { RubricItemDetailDto } from './dto';

/*
 * The item page of a rubric study, dimension by dimension: a pairwise item's page is `item-detail.ts`, which asks
 * this one for a rubric item.
 */

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
