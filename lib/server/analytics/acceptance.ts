import 'server-only';
import * as z from 'zod';
import { type CalibrationPair, type Maybe, clopperPearsonUpper, errorBoundedAcceptance, strataByPredictedLabel } from '@/lib/stats';
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
 * The confidence bins of class × confidence strata, closed on the right and fixed before any label is seen (a
 * bin's error is tested as any other stratum's); a verdict without a confidence has a stratum of its own.
 */
export const CONFIDENCE_BINS = [
  'confidence ≤ 0.5',
  'confidence 0.5–0.8',
  'confidence 0.8–0.9',
  'confidence > 0.9',
  'no confidence',
] as const;
const EDGES = [0.5, 0.8, 0.9];

const binOf = (c: number) => (Number.isNaN(c) ? CONFIDENCE_BINS[4] : CONFIDENCE_BINS[EDGES.filter((e) => c > e).length]);

/** The stratum of a verdict: its label, and with confidences its confidence bin too. */
export const stratumOf = (label: string, confidence: number, byConfidence: boolean) =>
  byConfidence ? `${label} · ${binOf(confidence)}` : label;

/**
 * Which of the judge's strata can be accepted with every accepted stratum's error rate below ε, with probability
 * ≥ 1 − δ over the calibration sample (Holm across the strata), and what Padó's plan accepts on the same data. The
 * strata are the predicted classes, or — when the run gave confidences — class × confidence bin. `gold` and
 * `verdict` are codes into `labels` (−1: none) of the items `keep` selects, `confidence` the judge's own (NaN: none);
 * the calibration sample is the items with both labels, the pool every item with a verdict.
 */
export function acceptanceFromCodes(
  gold: ArrayLike<number>,
  verdict: ArrayLike<number>,
  labels: readonly string[],
  levels: AcceptanceLevels,
  padoClass: string | null,
  keep: (i: number) => boolean = () => true,
  confidence?: ArrayLike<number>,
): AcceptanceDto {
  let byConfidence = false;
  if (confidence)
    for (let i = 0; i < verdict.length && !byConfidence; i++) byConfidence = verdict[i] >= 0 && keep(i) && !Number.isNaN(confidence[i]);
  const nameOf = (i: number) => stratumOf(labels[verdict[i]], confidence ? confidence[i] : NaN, byConfidence);
  const calibration: CalibrationPair[] = [];
  const poolPredicted: string[] = [];
  // Padó's class, counted whole whatever the strata.
  const pado = { n: 0, errors: 0, pool: 0 };
  for (let i = 0; i < verdict.length; i++) {
    const v = verdict[i];
    if (v < 0 || !keep(i)) continue;
    const name = nameOf(i);
    const isPado = labels[v] === padoClass;
    poolPredicted.push(name);
    if (isPado) pado.pool++;
    if (gold[i] < 0) continue;
    // The stratum stands for the judge's label: a calibration item is wrong when the human label differs from it.
    calibration.push({ predicted: name, human: gold[i] === v ? name : `≠${name}` });
    if (isPado) {
      pado.n++;
      if (gold[i] !== v) pado.errors++;
    }
  }
  const names = byConfidence ? labels.flatMap((l) => CONFIDENCE_BINS.map((b) => `${l} · ${b}`)) : [...labels];
  // Wrong calibration items carry a label of their own, declared after the strata (never a stratum).
  const declared = [...names, ...names.map((x) => `≠${x}`)];
  const all = strataByPredictedLabel(declared, calibration, poolPredicted).slice(0, names.length);
  // Empty class × bin strata say nothing; the predicted classes are all listed.
  const strata = byConfidence ? all.filter((x) => x.pool > 0) : all;
  const { epsilon, delta } = levels;
  const r = errorBoundedAcceptance(strata, { epsilon, delta, method: 'holm' });
  const pool = poolPredicted.length;
  const acceptedItems = strata.reduce((sum, x, j) => sum + (r.perStratum[j].accepted ? x.pool : 0), 0);
  const uppers = r.perStratum.filter((x) => x.accepted).map((x) => x.cpUpperBonferroni.value as number);
  const classOf = (name: string) => (byConfidence ? name.slice(0, name.lastIndexOf(' · ')) : name);
  const padoAccepted = padoClass !== null && pado.pool > 0;
  // Padó's class is guaranteed when every one of its strata with items is accepted.
  const padoStrata = r.perStratum.filter((x) => classOf(x.name) === padoClass);
  return {
    epsilon,
    delta,
    method: 'holm',
    stratifiedBy: byConfidence ? 'class_and_confidence' : 'class',
    pool,
    calibration: calibration.length,
    strata: strata.map((x, j) => {
      const t = r.perStratum[j];
      return {
        label: x.name,
        predicted: classOf(x.name),
        n: x.n,
        errors: x.errors,
        pool: x.pool,
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
      acceptedClass: padoAccepted ? padoClass : null,
      acceptedItems: pado.pool,
      acceptedShare: share(pado.pool, pool),
      observedError: pado.n > 0 ? { value: pado.errors / pado.n } : { value: null, reason: 'no_calibration_items' },
      errorUpper: pado.n > 0 ? { value: clopperPearsonUpper(pado.errors, pado.n, delta) } : { value: null, reason: 'no_calibration_items' },
      guaranteed: padoAccepted && padoStrata.length > 0 && padoStrata.every((x) => x.accepted),
      // The same accounting as the guarantee's: the calibration items and every other class's rest go to people.
      effortSaved: share(pado.pool - pado.n, pool),
    },
  };
}

/**
 * The items people review under the guarantee: of the candidates (`predictions[i]` ≥ 0, a code into `labels`),
 * every one outside the accepted strata. No random checks: the accepted strata's error is already bounded.
 */
export function guaranteedReview(
  predictions: ArrayLike<number>,
  labels: readonly string[],
  acceptance: AcceptanceDto,
  confidence?: ArrayLike<number>,
): number[] {
  const accepted = new Set(acceptance.acceptedLabels);
  const byConfidence = acceptance.stratifiedBy === 'class_and_confidence';
  const review: number[] = [];
  for (let i = 0; i < predictions.length; i++) {
    const v = predictions[i];
    if (v < 0) continue;
    if (!accepted.has(stratumOf(labels[v], confidence ? confidence[i] : NaN, byConfidence))) review.push(i);
  }
  return review;
}

/** Which plan a hybrid review queue follows: Padó's (its accepted class, plus random checks) or the guarantee's. */
export const queuePlanSchema = z.enum(['pado', 'guaranteed'], { error: 'plan is pado or guaranteed.' }).default('pado');
