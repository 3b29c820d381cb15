import 'server-only';
import * as z from 'zod';
import {
  type CalibrationPair,
  type HybridPlan,
  type Maybe,
  clopperPearsonUpper,
  errorBoundedAcceptance,
  strataByPredictedLabel,
} from '@/lib/stats';
import type { AcceptanceDto, StatDto } from './dto';

/*
 * Error-bounded acceptance of a judge's labels (STATS-3 part F) beside Padó's plan, on the data the hybrid plan
 * reads: one core for every kind of study, called by the plan's own core (`hybrid.ts`: `hybridPlanFromCodes`).
 */

/** ε and δ as a report's options: the error rate to certify below, and the chance the certificate is wrong. */
export const acceptanceOptions = {
  epsilon: z.coerce
    .number({ error: 'epsilon must be a number.' })
    .gt(0, { error: 'epsilon is an error rate above 0.' })
    .lt(1, { error: 'epsilon is an error rate below 1.' })
    .default(0.05),
  delta: z.coerce
    .number({ error: 'delta must be a number.' })
    .gt(0, { error: 'delta is a probability above 0.' })
    .lt(1, { error: 'delta is a probability below 1.' })
    .default(0.05),
};

export type AcceptanceLevels = { epsilon: number; delta: number };

const maybe = (m: Maybe<number>): StatDto => (m.value === null ? { value: null, reason: m.reason } : { value: m.value });
const share = (x: number, of: number): StatDto => (of > 0 ? { value: x / of } : { value: null, reason: 'no_items' });

/**
 * Which of the judge's predicted classes can be accepted with every accepted class's error rate below ε, with
 * probability ≥ 1 − δ over the calibration sample (Holm across the classes), and what Padó's plan accepts on the
 * same data. `gold` and `verdict` are codes into `labels` (−1: none) of the items `keep` selects; the calibration
 * sample is the items with both, the pool every item with a verdict.
 */
export function acceptanceFromCodes(
  gold: ArrayLike<number>,
  verdict: ArrayLike<number>,
  labels: readonly string[],
  levels: AcceptanceLevels,
  padoClass: string | null,
  keep: (i: number) => boolean = () => true,
): AcceptanceDto {
  const calibration: CalibrationPair[] = [];
  const poolPredicted: string[] = [];
  for (let i = 0; i < verdict.length; i++) {
    const v = verdict[i];
    if (v < 0 || !keep(i)) continue;
    poolPredicted.push(labels[v]);
    if (gold[i] >= 0) calibration.push({ predicted: labels[v], human: labels[gold[i]] });
  }
  const strata = strataByPredictedLabel(labels, calibration, poolPredicted);
  const { epsilon, delta } = levels;
  const r = errorBoundedAcceptance(strata, { epsilon, delta, method: 'holm' });
  const pool = poolPredicted.length;
  const acceptedItems = strata.reduce((s, x, j) => s + (r.perStratum[j].accepted ? x.pool : 0), 0);
  const uppers = r.perStratum.filter((s) => s.accepted).map((s) => s.cpUpperBonferroni.value as number);

  const padoIdx = padoClass === null ? -1 : labels.indexOf(padoClass);
  const padoStratum = padoIdx >= 0 ? strata[padoIdx] : null;
  const padoRest = padoStratum ? padoStratum.pool - padoStratum.n : 0;
  return {
    epsilon,
    delta,
    method: 'holm',
    pool,
    calibration: calibration.length,
    strata: strata.map((s, j) => {
      const t = r.perStratum[j];
      return {
        label: s.name,
        n: s.n,
        errors: s.errors,
        pool: s.pool,
        errorRate: maybe(t.errorRate),
        pValue: t.pValue,
        pAdjusted: t.pAdjusted ? maybe(t.pAdjusted) : { value: null, reason: 'no_calibration_items' },
        errorUpper: maybe(t.cpUpperDelta),
        errorUpperSimultaneous: maybe(t.cpUpperBonferroni),
        accepted: t.accepted,
      };
    }),
    acceptedLabels: r.accepted,
    acceptedItems,
    acceptedShare: share(acceptedItems, pool),
    judgeLabelledItems: r.judgeLabelledItems,
    humanLabels: r.humanLabels,
    coverage: maybe(r.coverage),
    effortSaved: maybe(r.effortSaved),
    errorBound: maybe(r.errorBound),
    errorUpperAccepted: uppers.length ? { value: Math.max(...uppers) } : { value: null, reason: 'nothing_accepted' },
    finalErrorRateBound: maybe(r.finalErrorRateBound),
    pado: {
      acceptedClass: padoStratum ? padoClass : null,
      acceptedItems: padoStratum?.pool ?? 0,
      acceptedShare: share(padoStratum?.pool ?? 0, pool),
      observedError:
        padoStratum && padoStratum.n > 0 ? { value: padoStratum.errors / padoStratum.n } : { value: null, reason: 'no_calibration_items' },
      errorUpper:
        padoStratum && padoStratum.n > 0
          ? { value: clopperPearsonUpper(padoStratum.errors, padoStratum.n, delta) }
          : { value: null, reason: 'no_calibration_items' },
      guaranteed: padoIdx >= 0 && r.perStratum[padoIdx].accepted,
      // The same accounting as the guarantee's: the calibration items and every other class's rest go to people.
      effortSaved: share(padoRest, pool),
    },
  };
}

/** Which plan a hybrid review queue follows: Padó's (its accepted class, plus random checks) or the guarantee's. */
export const queuePlanSchema = z.enum(['pado', 'guaranteed'], { error: 'plan is pado or guaranteed.' }).default('pado');

/**
 * The guarantee's plan in the shape the queue takes (lib/stats `hybridReviewQueue`): every class not accepted with
 * the guarantee goes to people, the accepted ones keep the judge's labels, and no random checks are added (the
 * certificate already bounds their error).
 */
export function guaranteedQueuePlan(plan: HybridPlan, acceptance: AcceptanceDto): HybridPlan {
  const accepted = new Set(acceptance.acceptedLabels);
  return {
    ...plan,
    acceptedClass: null,
    reviewedClasses: acceptance.strata.filter((s) => !accepted.has(s.label)).map((s) => s.label),
    extraReviewsExpected: 0,
    extraReviewsWorstCase: 0,
  };
}
