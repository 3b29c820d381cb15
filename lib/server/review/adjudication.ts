import 'server-only';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as pq from '@/db/queries/pairwise';
import type { StudyRow } from '@/db/queries/studies';
import * as studiesQ from '@/db/queries/studies';
import type { Label } from '@/lib/validation/labels';
import { submitAdjudicationSchema } from '@/lib/validation/judging';
import { isStaff, type Actor } from '../actor';
import { audit } from '../accounts/audit';
import { adjudicatorSwapped, toCanonical, toScreen } from './blinding';
import type { AdjudicationCriterionDto, AdjudicationItemDto, AdjudicationQueueDto } from './dto';
import { blindItem } from './judging';
import { conflict, forbidden, invalid, notFound } from '../errors';
import { DIFFERENT_SUBMISSION, requestHash } from './idempotency';
import { parseInput } from '../parse';
import { disputedItems, needsAdjudication } from './disputes';
import { rubricAdjudicatorQueue } from './rubric-disputes';

/**
 * The adjudicator named for the study, or staff. Anyone else learns nothing about the study. `kind` is the kind of
 * study the caller adjudicates (pairwise here, rubric in ./rubric-adjudication); a study of another kind is not found.
 */
export function studyForAdjudicator(db: Db, actor: Actor, studyId: number, kind: 'pairwise' | 'rubric' | 'any' = 'pairwise'): StudyRow {
  const study = studiesQ.findStudy(db, studyId);
  if (!study || study.kind === 'flow_review' || (kind !== 'any' && study.kind !== kind)) throw notFound('That study');
  if (isStaff(actor) || study.adjudicatorId === actor.id) return study;
  if (studiesQ.isMember(db, studyId, actor.id)) throw forbidden('Only the adjudicator of this study can settle disagreements.');
  throw notFound('That study');
}

export function getAdjudicationQueue(actor: Actor, studyId: number): AdjudicationQueueDto {
  const db = getDb();
  const study = studyForAdjudicator(db, actor, studyId, 'any');
  const items = study.kind === 'rubric' ? rubricAdjudicatorQueue(db, study) : disputedItems(db, study);
  const open = items.filter((i) => i.resolved < i.disagreements);
  return {
    studyId,
    kind: study.kind,
    studyName: study.name,
    status: study.status,
    total: items.length,
    resolved: items.length - open.length,
    currentItemId: open[0]?.itemId ?? null,
    nextItemId: open[1]?.itemId ?? null,
    items,
  };
}

/** Reviewers' labels per criterion, by slot (Reviewer 1 = slot 1). */
function labelsBySlot(db: Db, itemId: number) {
  const out = new Map<string, Label[]>();
  const slots = new Set<number>();
  for (const r of pq.reviewerLabels(db, itemId)) {
    slots.add(r.slot);
    const list = out.get(r.criterion) ?? [];
    list.push(r.label);
    out.set(r.criterion, list);
  }
  return { byCriterion: out, reviewerCount: slots.size };
}

function isComplete(db: Db, itemId: number) {
  const states = pq.assignmentStates(db, itemId);
  return states.length > 0 && states.every((s) => s.state === 'submitted');
}

function requireComplete(db: Db, itemId: number) {
  if (!isComplete(db, itemId)) throw conflict('Not every reviewer has judged this item yet.');
}

/**
 * The one rule of what an adjudicator may open: an item with something to settle, or one already ruled on. Any
 * other item of the study is "not found", the same answer as a missing one, so its reviewers' labels stay theirs
 * and nobody learns which items the reviewers agreed on.
 */
export function requireAdjudicable(disputed: () => boolean, ruled: boolean): void {
  if (!ruled && !disputed()) throw notFound('That item');
}

/** Whether a pairwise item is complete and has a criterion for the adjudicator under the study's rule. */
function isDisputed(db: Db, study: StudyRow, itemId: number) {
  if (!isComplete(db, itemId)) return false;
  return [...labelsBySlot(db, itemId).byCriterion.values()].some((labels) => needsAdjudication(labels, study.groundTruthRule));
}

export function getAdjudicationItem(actor: Actor, studyId: number, itemId: number): AdjudicationItemDto {
  const db = getDb();
  const study = studyForAdjudicator(db, actor, studyId);
  const row = pq.itemRow(db, itemId);
  if (!row || row.studyId !== studyId) throw notFound('That item');
  requireAdjudicable(() => isDisputed(db, study, itemId), pq.hasAdjudication(db, itemId));
  requireComplete(db, itemId);
  const swapped = adjudicatorSwapped(study.seed, itemId, actor.id);
  const { criteria, ...item } = blindItem(study, itemId, swapped);
  const { byCriterion, reviewerCount } = labelsBySlot(db, itemId);
  const rulings = new Map(pq.latestAdjudications(db, itemId).map((r) => [r.criterion, r]));
  const rows = criteria.map((c): AdjudicationCriterionDto => {
    const labels = byCriterion.get(c.id) ?? [];
    const ruling = rulings.get(c.id);
    return {
      ...c,
      reviewers: labels.map((l) => toScreen(l, swapped)),
      // Settled: every reviewer agrees, or (majority rule) a majority exists.
      agreed: labels.length > 0 && !needsAdjudication(labels, study.groundTruthRule),
      ruling: ruling ? toScreen(ruling.label, swapped) : null,
      rationale: ruling?.rationale ?? null,
    };
  });
  // Disagreements first; within each group the catalog order stays.
  rows.sort((a, b) => Number(a.agreed) - Number(b.agreed));
  return { kind: 'adjudication', ...item, studyId, criteria: rows, reviewerCount };
}

/**
 * Settles every disagreeing criterion of an item. A rationale is required where the ruling differs from every
 * reviewer. Appends a revision per criterion; the same request id again writes nothing (a conflict if it carries
 * other rulings, as for annotations).
 */
export function submitAdjudication(actor: Actor, input: unknown) {
  const { studyId, itemId, requestId, choices, rationales } = parseInput(submitAdjudicationSchema, input);
  const db = getDb();
  return inTransaction(db, () => {
    const written = Object.fromEntries(
      Object.entries(rationales)
        .map(([c, r]) => [c, r.trim()])
        .filter(([, r]) => r),
    );
    const hash = requestHash({ studyId, itemId, choices, rationales: written });
    const prior = pq.adjudicationByRequest(db, actor.id, requestId);
    if (prior) {
      // Rulings written before hashes were kept carry none: only their item can be compared.
      if (prior.itemId !== itemId || (prior.requestHash !== null && prior.requestHash !== hash)) throw conflict(DIFFERENT_SUBMISSION);
      return { itemId, duplicate: true };
    }
    const study = studyForAdjudicator(db, actor, studyId);
    if (study.status !== 'open') throw conflict(`The study is ${study.status}; nothing can be changed.`);
    const row = pq.itemRow(db, itemId);
    if (!row || row.studyId !== studyId) throw notFound('That item');
    requireAdjudicable(() => isDisputed(db, study, itemId), pq.hasAdjudication(db, itemId));
    requireComplete(db, itemId);
    const swapped = adjudicatorSwapped(study.seed, itemId, actor.id);
    const { byCriterion } = labelsBySlot(db, itemId);
    const disputed = [...byCriterion.entries()].filter(([, labels]) => needsAdjudication(labels, study.groundTruthRule));
    if (!disputed.length) throw conflict('Every criterion of this item is settled by its reviewers; there is nothing to adjudicate.');
    const fieldErrors: Record<string, string> = {};
    const decided: { criterion: string; label: Label; rationale: string | null }[] = [];
    for (const [criterion, labels] of disputed) {
      const choice = choices[criterion];
      if (!choice) {
        fieldErrors[criterion] = 'Choose a final label.';
        continue;
      }
      const label = toCanonical(choice, swapped);
      const rationale = rationales[criterion]?.trim() || null;
      if (!labels.includes(label) && !rationale) {
        fieldErrors[criterion] = 'Explain why you overrule both reviewers.';
        continue;
      }
      decided.push({ criterion, label, rationale });
    }
    const extra = Object.keys(choices).filter((c) => !disputed.some(([d]) => d === c));
    if (extra.length) fieldErrors[extra[0]] = 'The reviewers settled this one; it is not yours to decide.';
    if (Object.keys(fieldErrors).length) {
      throw invalid(
        `Settle every disagreement: ${Object.entries(fieldErrors)
          .map(([c, m]) => `${c}: ${m}`)
          .join(' ')}`,
        fieldErrors,
      );
    }
    for (const d of decided) pq.insertAdjudication(db, { itemId, ...d, adjudicatorId: actor.id, requestId, requestHash: hash });
    audit(db, {
      userId: actor.id,
      action: 'item_adjudicated',
      studyId,
      objectId: itemId,
      detail: { criteria: decided.map((d) => d.criterion) },
    });
    return { itemId, duplicate: false };
  });
}
