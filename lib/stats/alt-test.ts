/**
 * The alternative annotator test (alt-test): can the judge stand in for a human annotator? Each
 * annotator is held out in turn and compared with the judge on how well each matches the remaining
 * annotators (accuracy alignment), with a cost-benefit margin ε granted to the judge; one-sided
 * t-tests per annotator, Benjamini–Yekutieli across annotators (STATS-2 §5).
 */
import { type CertStat, type CertificationReason, type Reasoned, certValue, studentTCdf, certNull } from './certification-types';
import { type LabelCodes, isMissing } from './types';

export interface AltTestOptions {
  /** Margin ε granted to the judge (default 0.2; 0.15 skilled annotators, 0.1 crowd workers). */
  readonly epsilon?: number;
  /** False-discovery level of the BY procedure (default 0.05). */
  readonly q?: number;
  /** Items need a judge label and at least this many human labels (default 2). */
  readonly minAnnotatorsPerItem?: number;
  /** Annotators with fewer kept items are not tested (default 30; never below 2). */
  readonly minItemsPerAnnotator?: number;
}

export interface AltTestAnnotator {
  /** Index of the annotator (column of `ratings`). */
  readonly annotator: number;
  /** Kept items this annotator labelled. */
  readonly nItems: number;
  readonly tested: boolean;
  /** Per-item indicators W^f_i = [a_f ≥ a_h], W^h_i = [a_h ≥ a_f] (empty when not tested). */
  readonly wF: number[];
  readonly wH: number[];
  readonly rhoF: CertStat;
  readonly rhoH: CertStat;
  readonly meanD: CertStat;
  readonly sdD: CertStat;
  readonly t: CertStat;
  readonly pValue: CertStat;
  readonly pAdjustedBy: CertStat;
  readonly rejected: Reasoned<boolean>;
}

export interface AltTestResult {
  readonly itemsUsed: number;
  readonly annotatorsTested: number;
  /** ω: share of tested annotators whose null is rejected. */
  readonly winningRate: CertStat;
  /** ρ: mean of ρ^f over the tested annotators. */
  readonly advantageProbability: CertStat;
  /** ω ≥ ½. */
  readonly passes: Reasoned<boolean>;
  readonly perAnnotator: AltTestAnnotator[];
}

/**
 * Benjamini–Yekutieli step-up under arbitrary dependence, with adjusted p-values; a null p (a
 * zero-variance test at the margin) counts as 1.
 * Formula: H_m = Σ_{i=1}^{m} 1/i; p̃_(i) = min(1, min_{k≥i} m·H_m·p_(k)/k); reject ⇔ p̃ ≤ q.
 * @see Benjamini & Yekutieli (2001) Ann. Statist. 29, Theorem 1.3; scipy.stats.false_discovery_control(method='by').
 */
export function benjaminiYekutieli(pValues: ReadonlyArray<number | null>, q = 0.05): { adjusted: number[]; rejected: boolean[] } {
  const m = pValues.length;
  const p = pValues.map((x) => (x === null ? 1 : x));
  let harmonic = 0;
  for (let i = 1; i <= m; i++) harmonic += 1 / i;
  const order = p.map((_, i) => i).sort((i, j) => p[i] - p[j] || i - j);
  const adjusted = new Array<number>(m);
  let running = 1;
  for (let r = m; r >= 1; r--) {
    const i = order[r - 1];
    running = Math.min(running, (m * harmonic * p[i]) / r);
    adjusted[i] = Math.min(1, running);
  }
  return { adjusted, rejected: adjusted.map((a) => a <= q) };
}

/**
 * One-sided one-sample t-test of H₀: E[d] ≥ ε against E[d] < ε, with the zero-variance cases made
 * explicit (scipy's −∞/0, +∞/1 and NaN/NaN).
 * Formula: t = (d̄ − ε)/(s/√n), s with ddof 1; p = F_{n−1}(t).
 * @see Calderon, Reichart & Dror (2025) ACL, arXiv 2501.10970 (alt-test); scipy.stats.ttest_1samp(alternative='less'); STATS-2.md §5.3 step 5.
 */
export function oneSidedTTestLess(d: readonly number[], epsilon: number): { mean: number; sd: number; t: CertStat; p: CertStat } {
  const n = d.length;
  if (n < 2) throw new RangeError(`the t-test needs at least 2 values, got ${n}`);
  let sum = 0;
  for (const x of d) sum += x;
  const mean = sum / n;
  let ss = 0;
  for (const x of d) ss += (x - mean) ** 2;
  const sd = Math.sqrt(ss / (n - 1));
  if (sd === 0) {
    const reason: CertificationReason =
      mean < epsilon ? 'zero_variance_below_margin' : mean > epsilon ? 'zero_variance_above_margin' : 'zero_variance_at_margin';
    const p = mean < epsilon ? certValue(0) : mean > epsilon ? certValue(1) : certNull(reason);
    return { mean, sd, t: certNull(reason), p };
  }
  const t = (mean - epsilon) / (sd / Math.sqrt(n));
  return { mean, sd, t: certValue(t), p: certValue(studentTCdf(t, n - 1)) };
}

/**
 * The alternative annotator test with accuracy alignment. `ratings[i][j]` is annotator j's code on
 * item i and `judge[i]` the judge's, both codes into the declared set of `q` labels (negative or
 * null = missing).
 * Formula: a_h = #{k ∈ O : h_k = h_j}, a_f = #{k ∈ O : h_k = judge}; d_i = [a_h ≥ a_f] − [a_f ≥ a_h];
 * t-test of d against ε per annotator; BY at q; ω = #rejected/m′, ρ = mean ρ^f_j, passes ⇔ ω ≥ ½.
 * @see Calderon, Reichart & Dror (2025) "The Alternative Annotator Test for LLM-as-a-Judge", ACL, arXiv 2501.10970;
 * nitaytech/AltTest notebook; STATS-2.md §5.
 */
export function altTest(
  ratings: ReadonlyArray<LabelCodes>,
  judge: LabelCodes,
  labelCount: number,
  opts: AltTestOptions = {},
): AltTestResult {
  const epsilon = opts.epsilon ?? 0.2;
  const q = opts.q ?? 0.05;
  const minPerItem = opts.minAnnotatorsPerItem ?? 2;
  const minItems = Math.max(2, opts.minItemsPerAnnotator ?? 30);
  if (ratings.length !== judge.length) throw new RangeError(`ratings have ${ratings.length} items, judge ${judge.length}`);
  const m = ratings.length === 0 ? 0 : ratings[0].length;
  const check = (c: number | null): void => {
    if (!isMissing(c) && !(Number.isInteger(c) && (c as number) < labelCount)) {
      throw new RangeError(`code ${c} is not in the declared label set of ${labelCount} labels`);
    }
  };
  for (let i = 0; i < ratings.length; i++) {
    if (ratings[i].length !== m) throw new RangeError(`item ${i} has ${ratings[i].length} annotators, expected ${m}`);
    for (let j = 0; j < m; j++) check(ratings[i][j]);
    check(judge[i]);
  }
  const kept: number[] = [];
  for (let i = 0; i < ratings.length; i++) {
    let labelled = 0;
    for (let j = 0; j < m; j++) if (!isMissing(ratings[i][j])) labelled++;
    if (!isMissing(judge[i]) && labelled >= minPerItem) kept.push(i);
  }

  const perAnnotator: AltTestAnnotator[] = [];
  const tested: number[] = [];
  const pValues: Array<number | null> = [];
  for (let j = 0; j < m; j++) {
    const items = kept.filter((i) => !isMissing(ratings[i][j]));
    if (items.length < minItems) {
      const no = certNull('too_few_items');
      perAnnotator.push({
        annotator: j,
        nItems: items.length,
        tested: false,
        wF: [],
        wH: [],
        rhoF: no,
        rhoH: no,
        meanD: no,
        sdD: no,
        t: no,
        pValue: no,
        pAdjustedBy: no,
        rejected: no,
      });
      continue;
    }
    const wF: number[] = [];
    const wH: number[] = [];
    for (const i of items) {
      const own = ratings[i][j];
      let aH = 0;
      let aF = 0;
      for (let k = 0; k < m; k++) {
        const other = ratings[i][k];
        if (k === j || isMissing(other)) continue;
        if (other === own) aH++;
        if (other === judge[i]) aF++;
      }
      // Comparing the counts equals comparing a/|O|; a tie counts as a win for both sides.
      wF.push(aF >= aH ? 1 : 0);
      wH.push(aH >= aF ? 1 : 0);
    }
    const d = wH.map((h, k) => h - wF[k]);
    const test = oneSidedTTestLess(d, epsilon);
    const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
    tested.push(j);
    pValues.push(test.p.value);
    perAnnotator.push({
      annotator: j,
      nItems: items.length,
      tested: true,
      wF,
      wH,
      rhoF: certValue(mean(wF)),
      rhoH: certValue(mean(wH)),
      meanD: certValue(test.mean),
      sdD: certValue(test.sd),
      t: test.t,
      pValue: test.p,
      pAdjustedBy: certNull('no_annotator_tested'),
      rejected: certNull('no_annotator_tested'),
    });
  }
  const by = benjaminiYekutieli(pValues, q);
  tested.forEach((j, k) => {
    perAnnotator[j] = { ...perAnnotator[j], pAdjustedBy: certValue(by.adjusted[k]), rejected: certValue(by.rejected[k]) };
  });
  const mTested = tested.length;
  if (mTested === 0) {
    const no = certNull('no_annotator_tested');
    return { itemsUsed: kept.length, annotatorsTested: 0, winningRate: no, advantageProbability: no, passes: no, perAnnotator };
  }
  const omega = by.rejected.filter(Boolean).length / mTested;
  let rhoSum = 0;
  for (const j of tested) rhoSum += perAnnotator[j].rhoF.value as number;
  return {
    itemsUsed: kept.length,
    annotatorsTested: mTested,
    winningRate: certValue(omega),
    advantageProbability: certValue(rhoSum / mTested),
    passes: certValue(omega >= 0.5),
    perAnnotator,
  };
}
