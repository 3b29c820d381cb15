import 'server-only';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as pq from '@/db/queries/pairwise';
import type { StudyRow } from '@/db/queries/studies';
import * as studiesQ from '@/db/queries/studies';
import type { AdjudicationFacet, AdjudicationUnit, UnitDecision } from '@/lib/kinds/facets/adjudication';
import { studyKind } from '@/lib/kinds/registry';
import type { StudyKind } from '@/lib/validation/labels';
import { isStaff, type Actor } from '../actor';
import { audit } from '../accounts/audit';
import { NO_RULING, NO_VOTES, decide, needsAdjudication, outcomeLabel } from '../ground-truth/rule';
import type { AdjudicationItemDto, AdjudicationQueueDto, RubricAdjudicationItemDto } from './dto';
import { conflict, forbidden, invalid, notFound } from '../errors';
import { DIFFERENT_SUBMISSION, requestHash } from './idempotency';
import { adjudicatorQueue } from './disputes';
import { isOfKind } from './access';

/*
 * Adjudication, written once for every kind of study: who may adjudicate, which items they may open, completeness,
 * the disputed units under the study's ground-truth rule, request replay, the study's status, "overruling every
 * reviewer needs a rationale", the write and the audit entry, with their messages. The kind (`lib/kinds/<kind>/
 * adjudication.ts`) supplies what a unit is (a criterion, a dimension), how labels are decoded to codes and
 * stored, how the adjudicator names an item, and the view.
 */

/** The kind's adjudication, or "not found" for a kind without one (flow review). */
function adjudicationOf(study: StudyRow): AdjudicationFacet {
  const facet = studyKind(study.kind).adjudication;
  if (!facet) throw notFound('That study');
  return facet;
}

/**
 * The adjudicator named for the study, or staff. Anyone else learns nothing about the study. `kind` is the kind of
 * study the caller adjudicates ('any' for a caller that asks the kind); a study of another kind, or of a kind with
 * nothing to adjudicate, is not found.
 */
export function studyForAdjudicator(db: Db, actor: Actor, studyId: number, kind: StudyKind | 'any' = 'pairwise'): StudyRow {
  const study = studiesQ.findStudy(db, studyId);
  if (!study || !studyKind(study.kind).adjudication || !isOfKind(study, kind)) throw notFound('That study');
  if (isStaff(actor) || study.adjudicatorId === actor.id) return study;
  if (studiesQ.isMember(db, studyId, actor.id)) throw forbidden('Only the adjudicator of this study can settle disagreements.');
  throw notFound('That study');
}

export function getAdjudicationQueue(actor: Actor, studyId: number): AdjudicationQueueDto {
  const db = getDb();
  const study = studyForAdjudicator(db, actor, studyId, 'any');
  const items = adjudicatorQueue(db, study);
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

function isComplete(db: Db, itemId: number) {
  const states = pq.assignmentStates(db, itemId);
  return states.length > 0 && states.every((s) => s.state === 'submitted');
}

function requireComplete(db: Db, itemId: number) {
  if (!isComplete(db, itemId)) throw conflict('Not every reviewer has labelled this item yet.');
}

/**
 * The one rule of what an adjudicator may open: an item with something to settle, or one already ruled on. Any
 * other item of the study is "not found", the same answer as a missing one, so its reviewers' labels stay theirs
 * and nobody learns which items the reviewers agreed on.
 */
export function requireAdjudicable(disputed: () => boolean, ruled: boolean): void {
  if (!ruled && !disputed()) throw notFound('That item');
}

/** The rule's outcome on one unit (see lib/server/ground-truth/rule.ts), without a ruling. */
const outcomeOf = (study: StudyRow, unit: AdjudicationUnit) =>
  decide(unit.votes, 0, unit.votes.length, NO_RULING, study.groundTruthRule, unit.labelCount);

/** The units the rule leaves to the adjudicator: reviewers who voted and neither agree nor (majority rule) have a majority. */
const disputedUnits = (study: StudyRow, units: AdjudicationUnit[]) => units.filter((u) => needsAdjudication(outcomeOf(study, u)));

/** The item, if it is one of the study's and its adjudicator may open it (`requireAdjudicable`), and it is complete. */
function openItem(db: Db, facet: AdjudicationFacet, study: StudyRow, itemId: number): void {
  if (facet.studyOfItem(db, itemId) !== study.id) throw notFound('That item');
  requireAdjudicable(
    () => isComplete(db, itemId) && disputedUnits(study, facet.units(db, study, itemId)).length > 0,
    facet.ruled(db, itemId),
  );
  requireComplete(db, itemId);
}

/**
 * A disputed item as its adjudicator sees it, named as the adjudicator's queue names it (`ref`: the item id in a
 * pairwise study, the item's number in a rubric one, docs/decisions/0013). `kind` pins the kind of study the
 * caller expects ('any': whichever the study is).
 */
function adjudicationView(actor: Actor, studyId: number, ref: number, kind: StudyKind | 'any') {
  const db = getDb();
  const study = studyForAdjudicator(db, actor, studyId, kind);
  const facet = adjudicationOf(study);
  const itemId = facet.itemIdOf(study, ref);
  openItem(db, facet, study, itemId);
  const decided = new Map<string, UnitDecision>();
  for (const unit of facet.units(db, study, itemId)) {
    const outcome = outcomeOf(study, unit);
    if (outcome === NO_VOTES) continue;
    const agreed = !needsAdjudication(outcome);
    decided.set(unit.id, { agreed, settled: agreed ? outcomeLabel(outcome) : -1 });
  }
  const place = () => adjudicatorQueue(db, study).find((i) => i.itemId === ref)?.position ?? 0;
  return facet.view(db, study, actor.id, itemId, { decided, place });
}

/** The adjudication view of an item of whichever kind the study is. */
export function getAdjudicationView(actor: Actor, studyId: number, itemId: number): AdjudicationItemDto | RubricAdjudicationItemDto {
  return adjudicationView(actor, studyId, itemId, 'any');
}

/** A pairwise item as its adjudicator sees it (a study of another kind is not found). */
export function getAdjudicationItem(actor: Actor, studyId: number, itemId: number): AdjudicationItemDto {
  return adjudicationView(actor, studyId, itemId, 'pairwise') as AdjudicationItemDto;
}

/** A rubric item as its adjudicator sees it, by its number (a study of another kind is not found). */
export function getRubricAdjudicationItem(actor: Actor, studyId: number, ref: number): RubricAdjudicationItemDto {
  return adjudicationView(actor, studyId, ref, 'rubric') as RubricAdjudicationItemDto;
}

/**
 * Settles every disputed unit of an item: one label each, and a rationale where the ruling differs from every
 * reviewer. Appends a revision per unit; the same request id again writes nothing (a conflict if it carries other
 * rulings, as for annotations). `kind` is the kind of study the submission is written for: its schema parses it.
 */
export function submitRulings(kind: StudyKind, actor: Actor, input: unknown) {
  const facet = studyKind(kind).adjudication;
  if (!facet) throw notFound('That study');
  const { studyId, itemId: ref, requestId, choices, rationales } = facet.parseRulings(input);
  const db = getDb();
  // The rubric adjudicator names the item by its number; rulings and their hash are by item id.
  const itemId = facet.itemIdOf(studiesQ.findStudy(db, studyId), ref);
  return inTransaction(db, () => {
    const written = Object.fromEntries(
      Object.entries(rationales)
        .map(([c, r]) => [c, r.trim()])
        .filter(([, r]) => r),
    );
    const hash = requestHash({ studyId, itemId, [facet.choiceField]: choices, rationales: written });
    const prior = facet.priorRuling(db, actor.id, requestId);
    if (prior) {
      // Rulings written before hashes were kept carry none: only their item can be compared.
      if (prior.itemId !== itemId || (prior.requestHash !== null && prior.requestHash !== hash)) throw conflict(DIFFERENT_SUBMISSION);
      return { itemId: ref, duplicate: true };
    }
    const study = studyForAdjudicator(db, actor, studyId, kind);
    if (study.status !== 'open') throw conflict(`The study is ${study.status}; nothing can be changed.`);
    openItem(db, facet, study, itemId);
    const disputed = disputedUnits(study, facet.units(db, study, itemId));
    if (!disputed.length)
      throw conflict(`Every ${facet.unit.one} of this item is settled by its reviewers; there is nothing to adjudicate.`);
    const codes = facet.choiceCodes(study, itemId, actor.id, choices);
    const fieldErrors: Record<string, string> = {};
    const decided: { unit: string; label: number; rationale: string | null }[] = [];
    for (const unit of disputed) {
      const label = codes.get(unit.id);
      if (label === undefined) {
        fieldErrors[unit.id] = 'Choose a final label.';
        continue;
      }
      const rationale = written[unit.id] ?? null;
      if (!unit.votes.includes(label) && !rationale) {
        fieldErrors[unit.id] = 'Explain why you overrule every reviewer.';
        continue;
      }
      decided.push({ unit: unit.id, label, rationale });
    }
    const extra = [...codes.keys()].filter((id) => !disputed.some((u) => u.id === id));
    if (extra.length) fieldErrors[extra[0]] = 'The reviewers settled this one; it is not yours to decide.';
    if (Object.keys(fieldErrors).length) {
      throw invalid(
        `Settle every disagreement: ${Object.entries(fieldErrors)
          .map(([c, m]) => `${c}: ${m}`)
          .join(' ')}`,
        fieldErrors,
      );
    }
    for (const d of decided) facet.insertRuling(db, study, { itemId, ...d, adjudicatorId: actor.id, requestId, requestHash: hash });
    audit(db, {
      userId: actor.id,
      action: 'item_adjudicated',
      studyId,
      objectId: itemId,
      detail: { [facet.unit.many]: decided.map((d) => d.unit) },
    });
    return { itemId: ref, duplicate: false };
  });
}

/** Rulings on a pairwise item: `choices` by criterion, as the adjudicator sees the replies. */
export const submitAdjudication = (actor: Actor, input: unknown) => submitRulings('pairwise', actor, input);

/** Rulings on a rubric item: `labels` by dimension, by name; the item by its number. */
export const submitRubricAdjudication = (actor: Actor, input: unknown) => submitRulings('rubric', actor, input);
