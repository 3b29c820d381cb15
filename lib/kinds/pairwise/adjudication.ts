/**
 * What adjudication of a pairwise study has of its own: a unit is a criterion, labels are stored by name from reply
 * a's side (`lose`/`tie`/`win`, coded as their index in `LABELS`), and the adjudicator sees the replies in an order
 * drawn for them (`adjudicatorSwapped`), so their choices arrive as "Response 1 / tie / Response 2" and are turned
 * back here. The item is named by its id. Everything else is the core's (lib/server/review/adjudication.ts).
 */
import type { Db } from '@/db/client';
import * as pq from '@/db/queries/pairwise';
import type { StudyRow } from '@/db/queries/studies';
import type { AdjudicationCriterionDto, AdjudicationItemDto, ScreenChoice } from '@/lib/server/review/dto';
import { parseInput } from '@/lib/server/parse';
import { submitAdjudicationSchema } from '@/lib/validation/judging';
import { LABELS, type Label } from '@/lib/validation/labels';
import type { AdjudicationFacet, AdjudicationUnit, ViewContext } from '../facets/adjudication';
import { adjudicatorSwapped, toCanonical, toScreen } from './blinding';
import { blindItem } from './item-view';

const code = (label: string) => LABELS.indexOf(label as Label);

/** Reviewers' label codes per criterion, in the order the reviewers' rows come (Reviewer 1 first). */
function votesOf(db: Db, itemId: number): { units: AdjudicationUnit[]; reviewerCount: number } {
  const byCriterion = new Map<string, number[]>();
  const slots = new Set<number>();
  for (const r of pq.reviewerLabels(db, itemId)) {
    slots.add(r.slot);
    const list = byCriterion.get(r.criterion) ?? [];
    list.push(code(r.label));
    byCriterion.set(r.criterion, list);
  }
  return { units: [...byCriterion].map(([id, votes]) => ({ id, votes, labelCount: LABELS.length })), reviewerCount: slots.size };
}

export const pairwiseAdjudication: AdjudicationFacet = {
  unit: { one: 'criterion', many: 'criteria' },
  choiceField: 'choices',
  parseRulings: (input) => parseInput(submitAdjudicationSchema, input),
  splitUnits: (db, study) =>
    pq.splitCriteria(db, study.id).map((row) => ({
      itemId: row.itemId,
      position: row.position,
      votes: row.labels.split(',').map(code),
      labelCount: LABELS.length,
      adjudicated: row.adjudicated === 1,
    })),
  queueOf: (_study, items) => items,
  itemIdOf: (_study, ref) => ref,
  refOf: (_study, itemId) => itemId,
  studyOfItem: (db, itemId) => pq.itemRow(db, itemId)?.studyId,
  ruled: (db, itemId) => pq.hasAdjudication(db, itemId),
  units: (db, _study, itemId) => votesOf(db, itemId).units,
  choiceCodes: (study, itemId, adjudicatorId, choices) => {
    const swapped = adjudicatorSwapped(study.seed, itemId, adjudicatorId);
    return new Map(Object.entries(choices).map(([criterion, choice]) => [criterion, code(toCanonical(choice as ScreenChoice, swapped))]));
  },
  priorRuling: (db, adjudicatorId, requestId) => pq.adjudicationByRequest(db, adjudicatorId, requestId),
  insertRuling: (db, _study, { unit, label, ...ruling }) => pq.insertAdjudication(db, { ...ruling, criterion: unit, label: LABELS[label] }),
  view,
};

/** The item with each criterion's reviewers' choices and the ruling so far, in the adjudicator's display order. */
function view(db: Db, study: StudyRow, adjudicatorId: number, itemId: number, { decided }: ViewContext): AdjudicationItemDto {
  const swapped = adjudicatorSwapped(study.seed, itemId, adjudicatorId);
  const { criteria, ...item } = blindItem(study, itemId, swapped, db);
  const { units, reviewerCount } = votesOf(db, itemId);
  const votes = new Map(units.map((u) => [u.id, u.votes.map((v) => LABELS[v])]));
  const rulings = new Map(pq.latestAdjudications(db, itemId).map((r) => [r.criterion, r]));
  const rows = criteria.map((c): AdjudicationCriterionDto => {
    const labels = votes.get(c.id) ?? [];
    const ruling = rulings.get(c.id);
    return {
      ...c,
      reviewers: labels.map((l) => toScreen(l, swapped)),
      // Settled: every reviewer agrees, or (majority rule) a majority exists.
      agreed: decided.get(c.id)?.agreed ?? false,
      ruling: ruling ? toScreen(ruling.label, swapped) : null,
      rationale: ruling?.rationale ?? null,
    };
  });
  // Disagreements first; within each group the catalog order stays.
  rows.sort((a, b) => Number(a.agreed) - Number(b.agreed));
  return { kind: 'adjudication', ...item, studyId: study.id, criteria: rows, reviewerCount };
}
