/**
 * The hybrid human–LLM review plan of Padó (2025): from a calibration sample with gold labels,
 * trust the judge on the class it predicts most reliably, send everything it put in the other
 * classes to people, and — if the result is still below the target accuracy — plan extra random
 * reviews of the trusted class. Assumes that a human review returns the gold label.
 */
import { tableSize } from './encode';
import { createRng } from './random';
import { type CountTable, type LabelCodes, type Stat, defined, ratio, undefinedStat } from './types';

/** How often the judge predicted a class, and how many of those predictions were right. */
export interface ClassTally {
  readonly label: string;
  readonly predicted: number;
  readonly correct: number;
}

export interface HybridClass extends ClassTally {
  /** Class-wise accuracy correct/predicted; `empty_class` when never predicted. */
  readonly accuracy: Stat;
  /** `accept`: keep the judge's labels; `review`: send to people; `none`: never predicted. */
  readonly decision: 'accept' | 'review' | 'none';
}

export interface HybridPlan {
  readonly classes: readonly HybridClass[];
  /** N, all judged items of the calibration sample. */
  readonly total: number;
  /** Accuracy of the judge alone: Σ correct / N. */
  readonly accJudge: Stat;
  readonly acceptedClass: string | null;
  readonly reviewedClasses: readonly string[];
  /** Items sent to review (all predictions of the reviewed classes). */
  readonly reviewed: number;
  /** (correct of accepted class + reviewed) / N. */
  readonly accHybrid: Stat;
  /** 1 − reviewed / N. */
  readonly effortSaved: Stat;
  readonly target: number;
  /** Errors in the accepted class that must still be found to reach the target. */
  readonly errorsToFix: number;
  /** ⌈errorsToFix / error rate of the accepted class⌉ extra random reviews. */
  readonly extraReviewsExpected: number;
  readonly accExpectedAfter: Stat;
  readonly effortSavedExpectedAfter: Stat;
  /** Extra reviews if the errors are found last: correct of accepted class + errorsToFix. */
  readonly extraReviewsWorstCase: number;
  readonly effortSavedWorstCase: Stat;
}

function pickAccepted(tallies: readonly ClassTally[]): number {
  let best = -1;
  for (let c = 0; c < tallies.length; c++) {
    const t = tallies[c];
    if (t.predicted === 0) continue;
    if (best < 0) {
      best = c;
      continue;
    }
    const b = tallies[best];
    // Compare correct/predicted exactly by cross-multiplication; ties go to the larger class
    // (more effort saved), then to the declared order.
    const lhs = t.correct * b.predicted;
    const rhs = b.correct * t.predicted;
    if (lhs > rhs || (lhs === rhs && t.predicted > b.predicted)) best = c;
  }
  return best;
}

/**
 * Hybrid review plan from per-class tallies of the judge's predictions on a calibration sample.
 * Formula: acc_c = correct_c/predicted_c; accept a = argmax_c acc_c; Acc_hybrid = (correct_a + reviewed)/N;
 * saved = 1 − reviewed/N; e = ⌈target·N⌉ − (correct_a + reviewed); k = ⌈e·predicted_a/(predicted_a − correct_a)⌉;
 * Acc_after = (correct_a + reviewed + k·(1 − acc_a))/N; worst case k = correct_a + e.
 * @see Padó (2025) "Hybrid Evaluation of Tutor Dialogues"; STATS.md §2.8.
 */
export function hybridReviewPlan(tallies: readonly ClassTally[], opts: { target?: number } = {}): HybridPlan {
  const target = opts.target ?? 0.95;
  if (!(target > 0 && target <= 1)) throw new RangeError(`target accuracy must be in (0, 1], got ${target}`);
  let total = 0;
  let correctAll = 0;
  for (const t of tallies) {
    if (!Number.isInteger(t.predicted) || !Number.isInteger(t.correct) || t.correct < 0 || t.correct > t.predicted) {
      throw new RangeError(`class ${t.label}: need integers 0 ≤ correct ≤ predicted`);
    }
    total += t.predicted;
    correctAll += t.correct;
  }
  const acc = tallies.map((t) => ratio(t.correct, t.predicted, 'empty_class'));
  const a = pickAccepted(tallies);
  const classes: HybridClass[] = tallies.map((t, c) => ({
    ...t,
    accuracy: acc[c],
    decision: t.predicted === 0 ? 'none' : c === a ? 'accept' : 'review',
  }));
  if (a < 0) {
    const none = undefinedStat('no_items');
    return {
      classes,
      total,
      accJudge: none,
      acceptedClass: null,
      reviewedClasses: [],
      reviewed: 0,
      accHybrid: none,
      effortSaved: none,
      target,
      errorsToFix: 0,
      extraReviewsExpected: 0,
      accExpectedAfter: none,
      effortSavedExpectedAfter: none,
      extraReviewsWorstCase: 0,
      effortSavedWorstCase: none,
    };
  }
  const acceptedTally = tallies[a];
  const reviewed = total - acceptedTally.predicted;
  const okNow = acceptedTally.correct + reviewed;
  const errorsAccepted = acceptedTally.predicted - acceptedTally.correct;
  const needed = Math.ceil(target * total - 1e-9);
  const errorsToFix = Math.max(0, needed - okNow);
  const extraExpected = errorsToFix === 0 ? 0 : Math.ceil((errorsToFix * acceptedTally.predicted) / errorsAccepted);
  const extraWorst = errorsToFix === 0 ? 0 : acceptedTally.correct + errorsToFix;
  return {
    classes,
    total,
    accJudge: defined(correctAll / total),
    acceptedClass: acceptedTally.label,
    reviewedClasses: classes.filter((c) => c.decision === 'review').map((c) => c.label),
    reviewed,
    accHybrid: defined(okNow / total),
    effortSaved: defined(1 - reviewed / total),
    target,
    errorsToFix,
    extraReviewsExpected: extraExpected,
    accExpectedAfter: defined((okNow + (extraExpected * errorsAccepted) / acceptedTally.predicted) / total),
    effortSavedExpectedAfter: defined(1 - (reviewed + extraExpected) / total),
    extraReviewsWorstCase: extraWorst,
    effortSavedWorstCase: defined(1 - (reviewed + extraWorst) / total),
  };
}

/**
 * Hybrid review plan from a confusion matrix (rows = gold, columns = judge, declared order).
 * Formula: predicted_c = Σ_h C_hc, correct_c = C_cc, then `hybridReviewPlan`.
 * @see Padó (2025); STATS.md §2.8.
 */
export function hybridPlanFromConfusion(confusion: CountTable, labels: readonly string[], opts: { target?: number } = {}): HybridPlan {
  const q = tableSize(confusion);
  if (labels.length !== q) throw new Error(`confusion matrix is ${q}×${q} but ${labels.length} labels were declared`);
  const tallies: ClassTally[] = labels.map((label, c) => {
    let predicted = 0;
    for (let h = 0; h < q; h++) predicted += confusion[h][c];
    return { label, predicted, correct: confusion[c][c] };
  });
  return hybridReviewPlan(tallies, opts);
}

/** Items to put in a review queue for a plan. */
export interface ReviewQueue {
  /** Every item the judge put in a reviewed class, ascending. */
  readonly review: Int32Array;
  /** A seeded random sample of the accepted class, in review order. */
  readonly extra: Int32Array;
}

/**
 * Selects the items to review for a plan: all predictions of the reviewed classes, plus a seeded
 * random sample (without replacement, Fisher–Yates) of the accepted class of the planned size.
 * Formula: extra = first k of a uniform random permutation of {i : pred_i = accepted class}.
 * @see Padó (2025) step 5 (random review of the reliable class); Knuth TAOCP vol. 2, Algorithm P.
 */
export function hybridReviewQueue(
  predictions: LabelCodes,
  labels: readonly string[],
  plan: HybridPlan,
  opts: { seed: number; extra?: 'expected' | 'worst_case' | 'none' },
): ReviewQueue {
  const acceptedCode = plan.acceptedClass === null ? -1 : labels.indexOf(plan.acceptedClass);
  const reviewCodes = new Set(plan.reviewedClasses.map((l) => labels.indexOf(l)));
  const review: number[] = [];
  const pool: number[] = [];
  for (let i = 0; i < predictions.length; i++) {
    const c = predictions[i];
    if (c === null || c < 0) continue;
    if (c === acceptedCode) pool.push(i);
    else if (reviewCodes.has(c)) review.push(i);
  }
  const mode = opts.extra ?? 'expected';
  const k = Math.min(pool.length, mode === 'none' ? 0 : mode === 'expected' ? plan.extraReviewsExpected : plan.extraReviewsWorstCase);
  const rng = createRng(opts.seed);
  for (let j = 0; j < k; j++) {
    const r = j + rng.nextInt(pool.length - j);
    [pool[j], pool[r]] = [pool[r], pool[j]];
  }
  return { review: Int32Array.from(review), extra: Int32Array.from(pool.slice(0, k)) };
}
