import { LABELS, type Label } from '@/lib/validation/labels';
import type { GROUND_TRUTH_RULE_CHOICES } from '@/lib/validation/studies';

/**
 * The ground-truth rule of Concord, written once: which label a criterion of an item settles on, how it got there,
 * and whether it needs an adjudicator. Every reader calls `decide` (the ground-truth export, the dashboards' codes,
 * the pairwise item states, the adjudication queue), so a new rule is one edit here.
 *
 * - `adjudicated` (the default): the label every reviewer gave, else the adjudicator's ruling.
 * - `majority`: the label every reviewer gave, else the ruling if there is one, else the label more than half of
 *   the reviewers gave; only a split without a majority needs the adjudicator.
 * - `dawid_skene`, `mace`: whole-study label models (`./model-gold.ts`, decision 0028). The ruling if there is one,
 *   else the model's most probable label; nothing needs an adjudicator. One item's votes cannot say what the model
 *   fitted on the whole study makes of them, so `decide` answers `MODEL` and the readers that hold the whole
 *   study's labels (`decideGold`, the exports) put the model's label there.
 *
 * Only the votes given count: a reviewer slot without a label is neither for nor against (a majority is of the
 * votes given). Votes are label codes: for pairwise criteria the index in `LABELS` (lose 0, tie 1, win 2) as the
 * packs carry them (docs/decisions/0005-packed-labels.md), for a rubric dimension the index in its own label set
 * (`labelCount` labels, at most `MAX_LABELS`); anything else is no vote. `decide` reads them in place and returns
 * one small integer, so a dashboard over a million labels allocates nothing per label.
 */

export type GroundTruthRule = (typeof GROUND_TRUTH_RULE_CHOICES)[number];

export const PROVENANCES = ['agreed', 'majority', 'adjudicated'] as const;
/** How the per-item rule settled a label (packed in an outcome). */
export type OutcomeProvenance = (typeof PROVENANCES)[number];
/** How a ground-truth label was settled: by the per-item rule or by a label model. */
export type Provenance = OutcomeProvenance | ModelRule;

/** The rules decided by a model fitted on the whole study (decision 0028). */
export type ModelRule = 'dawid_skene' | 'mace';
export const isModelRule = (rule: GroundTruthRule): rule is ModelRule => rule === 'dawid_skene' || rule === 'mace';

/** Outcome: no reviewer gave a label on this criterion. */
export const NO_VOTES = -1;
/** Outcome: the reviewers disagree, the rule leaves it to an adjudicator, and there is no ruling. */
export const OPEN = -2;
/** Outcome: the ruling was passed as `UNKNOWN_RULING` and it would decide; look it up and decide again. */
export const ASK_RULING = -3;
/** Outcome: a model rule and no ruling: the label is the study's label model's (`./model-gold.ts`). */
export const MODEL = -4;

/** Ruling: the adjudicator has not ruled on this criterion. */
export const NO_RULING = -1;
/** Ruling: not looked up; `decide` answers `ASK_RULING` when the ruling matters (saves the lookup otherwise). */
export const UNKNOWN_RULING = -2;

/** The most labels one criterion or dimension may have (a rubric dimension's label set is checked against it). */
export const MAX_LABELS = 16;

// A decided outcome packs the label code, the provenance and "needs adjudication" in one non-negative integer.
const AGREED = 0;
const MAJORITY = 1;
const ADJUDICATED = 2;
const LABEL_BITS = 15;
const PROVENANCE_SHIFT = 4;
const NEEDS = 64;

const counts = new Int32Array(MAX_LABELS);

/**
 * Decides one criterion of one item from `slots` votes at `votes[offset…]` and the newest ruling (a label code,
 * `NO_RULING` or `UNKNOWN_RULING`), for a label set of `labelCount` labels (3 for pairwise). Returns `NO_VOTES`,
 * `OPEN`, `ASK_RULING`, `MODEL` (model rules), or a decided outcome to read with `outcomeLabel`,
 * `outcomeProvenance` and `needsAdjudication`.
 */
export function decide(
  votes: ArrayLike<number>,
  offset: number,
  slots: number,
  ruling: number,
  rule: GroundTruthRule,
  labelCount: number = LABELS.length,
): number {
  counts.fill(0, 0, labelCount);
  let total = 0;
  for (let s = 0; s < slots; s++) {
    const v = votes[offset + s];
    if (v >= 0 && v < labelCount) {
      counts[v]++;
      total++;
    }
  }
  if (total === 0) return NO_VOTES;
  if (rule === 'dawid_skene' || rule === 'mace') {
    // The ruling overrides the model; without one the model decides every item, unanimous or not.
    if (ruling === UNKNOWN_RULING) return ASK_RULING;
    if (ruling >= 0 && ruling < labelCount) return ruling | (ADJUDICATED << PROVENANCE_SHIFT);
    return MODEL;
  }
  let majority = -1;
  for (let l = 0; l < labelCount; l++) {
    if (counts[l] === total) return l | (AGREED << PROVENANCE_SHIFT);
    if (counts[l] * 2 > total) majority = l;
  }
  const needs = rule === 'majority' ? majority < 0 : true;
  if (ruling === UNKNOWN_RULING) return ASK_RULING;
  if (ruling >= 0 && ruling < labelCount) return ruling | (ADJUDICATED << PROVENANCE_SHIFT) | (needs ? NEEDS : 0);
  if (!needs) return majority | (MAJORITY << PROVENANCE_SHIFT);
  return OPEN;
}

/** The label code an outcome settles on, −1 if none. */
export const outcomeLabel = (outcome: number): number => (outcome >= 0 ? outcome & LABEL_BITS : -1);

/** How a decided outcome got its label; null when it has none (also `MODEL`: the model's label is the caller's). */
export const outcomeProvenance = (outcome: number): OutcomeProvenance | null =>
  outcome >= 0 ? PROVENANCES[(outcome >> PROVENANCE_SHIFT) & 3] : null;

/** Whether the votes call for an adjudicator under the rule (whether or not one has ruled). */
export const needsAdjudication = (outcome: number): boolean => outcome === OPEN || (outcome >= 0 && (outcome & NEEDS) !== 0);

export type Decision = { label: Label | null; provenance: OutcomeProvenance | null; needsAdjudication: boolean };

let scratch = new Int8Array(8);

/** `decide` for labels by name (one criterion's reviewers, null where a reviewer gave none), for row-by-row readers. */
export function decideLabels(labels: readonly (Label | null)[], ruling: Label | null, rule: GroundTruthRule): Decision {
  if (scratch.length < labels.length) scratch = new Int8Array(labels.length * 2);
  for (let s = 0; s < labels.length; s++) scratch[s] = labels[s] === null ? -1 : LABELS.indexOf(labels[s]!);
  const outcome = decide(scratch, 0, labels.length, ruling === null ? NO_RULING : LABELS.indexOf(ruling), rule);
  const code = outcomeLabel(outcome);
  return { label: code >= 0 ? LABELS[code] : null, provenance: outcomeProvenance(outcome), needsAdjudication: needsAdjudication(outcome) };
}
