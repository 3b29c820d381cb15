import 'server-only';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as pq from '@/db/queries/pairwise';
import * as rq from '@/db/queries/rubric-review';
import { findStudy, type StudyRow } from '@/db/queries/studies';
import { submitRubricAdjudicationSchema } from '@/lib/validation/rubric-review';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict, invalid, notFound } from '../errors';
import { parseInput } from '../parse';
import { NO_RULING, decide, needsAdjudication, outcomeLabel } from '../ground-truth/rule';
import { getAdjudicationItem, requireAdjudicable, studyForAdjudicator } from './adjudication';
import type { AdjudicationItemDto, RubricAdjudicationDimensionDto, RubricAdjudicationItemDto } from './dto';
import { DIFFERENT_SUBMISSION, requestHash } from './idempotency';
import { itemIdOfRef } from './item-refs';
import { rubricAdjudicatorQueue, rubricNeedsAdjudication } from './rubric-disputes';
import { blindRubricItem, codesOf, dimensionDto, rubricCatalog } from './rubric';

/** Each dimension's label codes by reviewer slot (index 0 = Reviewer 1; −1 where that reviewer gave none). */
function codesBySlot(db: Db, itemId: number, dimensions: number) {
  const rows = rq.rubricReviewerLabels(db, itemId);
  const slots = [...new Set(rows.map((r) => r.slot))].sort((a, b) => a - b);
  const byDimension = Array.from({ length: dimensions }, () => Array<number>(slots.length).fill(-1));
  for (const r of rows) if (r.dimension < dimensions) byDimension[r.dimension][slots.indexOf(r.slot)] = r.label;
  return { byDimension, reviewerCount: slots.length };
}

function isComplete(db: Db, itemId: number) {
  const states = pq.assignmentStates(db, itemId);
  return states.length > 0 && states.every((s) => s.state === 'submitted');
}

function requireComplete(db: Db, itemId: number) {
  if (!isComplete(db, itemId)) throw conflict('Not every reviewer has labelled this item yet.');
}

/** Whether a rubric item is complete and has a dimension for the adjudicator under the study's rule. */
function isDisputed(db: Db, study: StudyRow, itemId: number) {
  if (!isComplete(db, itemId)) return false;
  const catalog = rubricCatalog(study);
  // As the queue counts them (`rubricDisputedItems`): the labels given, a dimension nobody labelled left out.
  return codesBySlot(db, itemId, catalog.length).byDimension.some((codes, k) => {
    const given = codes.filter((c) => c >= 0);
    return given.length > 0 && rubricNeedsAdjudication(given, catalog[k].labels.length, study.groundTruthRule);
  });
}

/** The item, if it is one of the study's and the adjudicator may open it (`requireAdjudicable`); "not found" otherwise. */
function rubricItemOf(db: Db, study: StudyRow, itemId: number) {
  const row = rq.rubricItemRow(db, itemId);
  if (!row || row.studyId !== study.id) throw notFound('That item');
  requireAdjudicable(() => isDisputed(db, study, itemId), rq.hasRubricAdjudication(db, itemId));
  return row;
}

/**
 * A disputed rubric item as its adjudicator sees it, asked for by its number (`ref`, docs/decisions/0013): the dialogue and reply (no source), and per dimension each
 * reviewer's label as "Reviewer 1 / Reviewer 2", the ruling so far; the dimensions the rule leaves open first.
 */
export function getRubricAdjudicationItem(actor: Actor, studyId: number, ref: number): RubricAdjudicationItemDto {
  const db = getDb();
  const study = studyForAdjudicator(db, actor, studyId, 'rubric');
  const itemId = itemIdOfRef(study, ref);
  rubricItemOf(db, study, itemId);
  requireComplete(db, itemId);
  const catalog = rubricCatalog(study);
  const place = rubricAdjudicatorQueue(db, study).find((i) => i.itemId === ref)?.position ?? 0;
  const { dimensions: _dimensions, ...item } = blindRubricItem(db, study, itemId, place);
  const { byDimension, reviewerCount } = codesBySlot(db, itemId, catalog.length);
  const rulings = new Map(rq.latestRubricRulings(db, itemId).map((r) => [r.dimension, r]));
  const rows = catalog.map((d, k): RubricAdjudicationDimensionDto => {
    const codes = byDimension[k];
    const outcome = decide(codes, 0, codes.length, NO_RULING, study.groundTruthRule, d.labels.length);
    const ruling = rulings.get(k);
    const given = codes.some((c) => c >= 0);
    const agreed = given && !needsAdjudication(outcome);
    return {
      ...dimensionDto(d),
      reviewers: codes.map((c) => (c >= 0 ? d.labels[c] : null)),
      agreed,
      settled: agreed ? d.labels[outcomeLabel(outcome)] : null,
      ruling: ruling ? d.labels[ruling.label] : null,
      rationale: ruling?.rationale ?? null,
    };
  });
  // Disagreements first; within each group the catalog order stays (sort is stable).
  rows.sort((a, b) => Number(a.agreed) - Number(b.agreed));
  return { kind: 'rubric-adjudication', ...item, studyId, dimensions: rows, reviewerCount };
}

/**
 * The adjudication view of an item of either kind of study with disagreements: `itemId` as the adjudicator's queue
 * gives it (the item id in a pairwise study, the item's number in a rubric one).
 */
export function getAdjudicationView(actor: Actor, studyId: number, itemId: number): AdjudicationItemDto | RubricAdjudicationItemDto {
  const study = studyForAdjudicator(getDb(), actor, studyId, 'any');
  return study.kind === 'rubric' ? getRubricAdjudicationItem(actor, studyId, itemId) : getAdjudicationItem(actor, studyId, itemId);
}

/**
 * Settles every dimension of a rubric item that its reviewers leave open under the study's rule: one label of the
 * dimension's set each, a rationale where the ruling differs from every reviewer. Appends a revision per dimension
 * to `rubric_adjudications`; the same request id again writes nothing (a conflict if it carries other rulings).
 */
export function submitRubricAdjudication(actor: Actor, input: unknown) {
  const { studyId, itemId: ref, requestId, labels, rationales } = parseInput(submitRubricAdjudicationSchema, input);
  const db = getDb();
  // The adjudicator names the item by its number (docs/decisions/0013); rulings are stored by item id.
  const target = findStudy(db, studyId);
  const itemId = target ? itemIdOfRef(target, ref) : 0;
  return inTransaction(
    db,
    () => {
      const written = Object.fromEntries(
        Object.entries(rationales)
          .map(([c, r]) => [c, r.trim()])
          .filter(([, r]) => r),
      );
      const hash = requestHash({ studyId, itemId, labels, rationales: written });
      const prior = rq.rubricAdjudicationByRequest(db, actor.id, requestId);
      if (prior) {
        if (prior.itemId !== itemId || (prior.requestHash !== null && prior.requestHash !== hash)) throw conflict(DIFFERENT_SUBMISSION);
        return { itemId: ref, duplicate: true };
      }
      const study = studyForAdjudicator(db, actor, studyId, 'rubric');
      if (study.status !== 'open') throw conflict(`The study is ${study.status}; nothing can be changed.`);
      rubricItemOf(db, study, itemId);
      requireComplete(db, itemId);
      const catalog = rubricCatalog(study);
      const { byDimension } = codesBySlot(db, itemId, catalog.length);
      const disputed = catalog
        .map((d, k) => ({ d, k, codes: byDimension[k] }))
        .filter(({ d, codes }) => needsAdjudication(decide(codes, 0, codes.length, NO_RULING, study.groundTruthRule, d.labels.length)));
      if (!disputed.length) throw conflict('Every dimension of this item is settled by its reviewers; there is nothing to adjudicate.');
      const codes = new Map(codesOf(catalog, labels, false).map((c) => [c.dimension, c.label]));
      const fieldErrors: Record<string, string> = {};
      const decided: { dimension: number; label: number; rationale: string | null }[] = [];
      for (const { d, k, codes: given } of disputed) {
        const label = codes.get(k);
        if (label === undefined) {
          fieldErrors[d.id] = 'Choose a final label.';
          continue;
        }
        const rationale = written[d.id] ?? null;
        if (!given.includes(label) && !rationale) {
          fieldErrors[d.id] = 'Explain why you overrule every reviewer.';
          continue;
        }
        decided.push({ dimension: k, label, rationale });
      }
      const extra = [...codes.keys()].filter((k) => !disputed.some((x) => x.k === k));
      if (extra.length) fieldErrors[catalog[extra[0]].id] = 'The reviewers settled this one; it is not yours to decide.';
      if (Object.keys(fieldErrors).length) {
        throw invalid(
          `Settle every disagreement: ${Object.entries(fieldErrors)
            .map(([c, m]) => `${c}: ${m}`)
            .join(' ')}`,
          fieldErrors,
        );
      }
      for (const x of decided) rq.insertRubricAdjudication(db, { itemId, ...x, adjudicatorId: actor.id, requestId, requestHash: hash });
      audit(db, {
        userId: actor.id,
        action: 'item_adjudicated',
        studyId,
        objectId: itemId,
        detail: { dimensions: decided.map((x) => catalog[x.dimension].id) },
      });
      return { itemId: ref, duplicate: false };
    },
    'immediate',
  );
}
