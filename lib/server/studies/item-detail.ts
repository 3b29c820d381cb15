import 'server-only';
import { getDb } from '@/db/client';
import * as detailQ from '@/db/queries/item-detail';
import * as pq from '@/db/queries/pairwise';
import type { FlowItem } from '@/lib/validation/flow';
import { flowWarnings } from '@/lib/validation/flow-warnings';
import { LABELS, type Label } from '@/lib/validation/labels';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import type { Actor } from '../actor';
import { notFound } from '../errors';
import { pairwiseModelOfItem } from '../ground-truth/model-item';
import { decideLabels } from '../ground-truth/rule';
import { studyForStaff } from '../review/access';
import { criteriaForItem } from '../review/judging';
import type { ItemDetailDto, ItemReviewerDto, PairwiseCriterionDetailDto } from './dto';
import { NO_REMARKS, itemRemarksBySlot } from './item-remarks';
import { getRubricItem } from './item-dimensions';

/**
 * One item as its study's leads see it: the content reviewers saw (and the reply sources, which reviewers never
 * see), each reviewer with every revision they submitted and when, and for pairwise items, per criterion, the
 * reviewers' current labels side by side, the ground truth the study's rule gives (under a label model, the model's
 * label with its posterior), every ruling with its rationale and every judge run's verdict with its rationale.
 */
export function itemDetail(actor: Actor, studyId: number, itemId: number): ItemDetailDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  // Kind branch (why): a rubric item's detail is its own DTO (item-dimensions.ts); folding it into the item-detail
  // facet is a follow-up of decision 0020.
  if (study.kind === 'rubric') return { kind: 'rubric', studyId, rubric: getRubricItem(actor, studyId, itemId) };
  const row = Number.isInteger(itemId) ? pq.itemRow(db, itemId) : undefined;
  if (!row || row.studyId !== studyId) throw notFound('That item');
  const { previous, next } = detailQ.neighbourItems(db, studyId, row.position);

  const labelsByAnnotation = new Map<number, Record<string, Label>>();
  for (const l of detailQ.itemLabels(db, itemId)) {
    const labels = labelsByAnnotation.get(l.annotationId) ?? {};
    labels[l.criterion] = l.label;
    labelsByAnnotation.set(l.annotationId, labels);
  }
  const remarks = itemRemarksBySlot(db, itemId);
  const reviewers: ItemReviewerDto[] = [];
  for (const r of detailQ.itemRevisions(db, itemId)) {
    let reviewer = reviewers.at(-1);
    if (!reviewer || reviewer.slot !== r.slot) {
      reviewer = {
        slot: r.slot,
        username: r.username,
        displayName: r.displayName,
        state: r.state,
        activeSeconds: Math.round(r.activeMs / 1000),
        submittedAt: r.submittedAt === null ? null : new Date(r.submittedAt).toISOString(),
        sawAFirst: r.swapped === 0,
        revisions: [],
        remarks: remarks.get(r.slot) ?? NO_REMARKS,
      };
      reviewers.push(reviewer);
    }
    if (r.annotationId === null) continue;
    reviewer.revisions.push({
      revision: r.revision!,
      at: new Date(r.createdAt!).toISOString(),
      labels: labelsByAnnotation.get(r.annotationId) ?? null,
      flow: r.decision
        ? {
            decision: r.decision,
            afterStep: r.afterStep,
            reasons: r.reasons ? (JSON.parse(r.reasons) as string[]) : [],
            note: r.note,
          }
        : null,
    });
  }
  const base = {
    studyId,
    studyName: study.name,
    itemId,
    externalId: row.externalId,
    position: row.position,
    previousId: previous,
    nextId: next,
    reviewers,
  };

  // Kind branch (why): a flow has no criteria, labels or rulings: its detail ends here.
  if (study.kind === 'flow_review') {
    const flow = JSON.parse(row.payload) as FlowItem;
    return { ...base, kind: 'flow_review', flow, warnings: flowWarnings(flow) };
  }

  const item = JSON.parse(row.payload) as PairwiseItem;
  const criteria = criteriaForItem(study, item).map((c) => ({ id: c.id, name: c.name, level: c.level, description: c.description }));
  const known = new Set(criteria.map((c) => c.id));
  const rulings = detailQ.itemRulings(db, itemId);
  const verdicts = detailQ.itemVerdicts(db, itemId);
  // Criteria the item was labelled, ruled or judged on outside the study's catalog are shown too, after it.
  for (const id of [
    ...reviewers.flatMap((r) => r.revisions.flatMap((v) => Object.keys(v.labels ?? {}))),
    ...rulings.map((r) => r.criterion),
    ...verdicts.map((v) => v.criterion),
  ]) {
    if (!known.has(id)) {
      known.add(id);
      criteria.push({ id, name: id, level: 'general', description: '' });
    }
  }
  const current = (r: ItemReviewerDto) => (r.state === 'submitted' ? (r.revisions.at(-1)?.labels ?? null) : null);
  const complete = reviewers.length > 0 && reviewers.every((r) => r.state === 'submitted');
  // Under a label model (dawid_skene, mace) the item's label is the whole study's fit, with its posterior (0041).
  const model = complete ? pairwiseModelOfItem(db, study, itemId) : null;
  const rows: PairwiseCriterionDetailDto[] = criteria.map((c) => {
    const labels = reviewers.map((r) => current(r)?.[c.id] ?? null);
    const history = rulings.filter((r) => r.criterion === c.id);
    const ruling = history.at(-1)?.label ?? null;
    const decided = complete && labels.some((l) => l !== null) ? decideLabels(labels, ruling, study.groundTruthRule) : null;
    const modelled = decided && !decided.label && !decided.needsAdjudication ? model?.get(c.id) : undefined;
    return {
      ...c,
      labels,
      groundTruth: decided?.label
        ? { label: decided.label, provenance: decided.provenance! }
        : modelled
          ? { label: LABELS[modelled.code], provenance: modelled.rule, posterior: modelled.posterior }
          : null,
      waitsForAdjudicator: !!decided && decided.needsAdjudication && !decided.label,
      rulings: history.map((r) => ({
        revision: r.revision,
        label: r.label,
        rationale: r.rationale,
        by: r.username,
        at: new Date(r.createdAt).toISOString(),
      })),
      verdicts: verdicts
        .filter((v) => v.criterion === c.id)
        .map((v) => ({
          run: v.run,
          label: v.label,
          rationale: v.rationale,
          order: v.swapped ? ('b first' as const) : ('a first' as const),
        })),
    };
  });
  return {
    ...base,
    kind: 'pairwise',
    groundTruthRule: study.groundTruthRule,
    problem: item.problem,
    instructions: item.instructions ?? null,
    principles: item.principles ?? [],
    history: item.history ?? [],
    replies: { a: { text: item.a.text, source: row.sourceA }, b: { text: item.b.text, source: row.sourceB } },
    judgeRuns: [...new Set(verdicts.map((v) => v.run))],
    criteria: rows,
  };
}
