/**
 * The strata of error-bounded acceptance built from item-level data: one stratum per label the judge
 * predicts, counted from a human-labelled calibration sample and the whole pool (STATS-3 §7.2). The
 * hybrid plan (hybrid.ts) stratifies the same way, so the two can be shown side by side on the same data.
 */
import type { AcceptanceStratum } from './error-bounded-acceptance';
import { declaredIndex } from './stats3-types';

/** A calibration item: the judge's label and the human label. */
export interface CalibrationPair<L = string> {
  readonly predicted: L;
  readonly human: L;
}

/**
 * One stratum per declared label, in declared order: n = calibration items the judge labelled so, errors =
 * those where the human label differs, pool = all items the judge labelled so (the calibration items included).
 * Labels the judge never predicts give a stratum with n = 0 and pool 0, which is never accepted.
 * @see STATS-3 §7.2; Padó (2025) for the stratification by predicted class.
 */
export function strataByPredictedLabel<L>(
  labels: readonly L[],
  calibration: ReadonlyArray<CalibrationPair<L>>,
  poolPredicted: readonly L[],
): AcceptanceStratum[] {
  const n = new Array<number>(labels.length).fill(0);
  const errors = new Array<number>(labels.length).fill(0);
  const pool = new Array<number>(labels.length).fill(0);
  calibration.forEach((c, i) => {
    const k = declaredIndex(labels, c.predicted, `calibration item ${i}`);
    declaredIndex(labels, c.human, `calibration item ${i}`);
    n[k]++;
    if (c.human !== c.predicted) errors[k]++;
  });
  poolPredicted.forEach((p, i) => pool[declaredIndex(labels, p, `pool item ${i}`)]++);
  return labels.map((label, k) => {
    if (n[k] > pool[k])
      throw new RangeError(
        `label ${String(label)}: ${n[k]} calibration items but only ${pool[k]} in the pool (the pool must include them)`,
      );
    return { name: String(label), n: n[k], errors: errors[k], pool: pool[k] };
  });
}
