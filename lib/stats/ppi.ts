/**
 * Prediction-powered inference for a mean: the human mean θ = E[Y] estimated from n human labels
 * plus the judge's scores on those n items and on N more (STATS-2 §3). Four estimators side by
 * side — classical (humans only), judge-only, PPI (λ = 1) and PPI++ (power-tuned λ̂) — with
 * normal 95 % intervals, mirroring ppi_py 0.2.3's ddof choices.
 *
 * For a leaderboard cell, Y is the per-item outcome: the win value under the study's tie policy
 * (pairwise) or 1 when the label is one of the desired labels (rubric); see `ppiOutcomes`.
 */
import {
  type CertInterval,
  type CertStat,
  type CertificationReason,
  Z_975,
  certValue,
  certNoInterval,
  normalInterval,
  sameLength,
  certNull,
} from './certification-types';
import { zForLevel } from './intervals';
import { type LabelCodes, isMissing } from './types';
import type { OutcomeCodes, TiePolicy } from './winrate';

/** One estimator: point estimate, standard error and the normal interval estimate ± z·se. */
export interface PpiEstimate {
  readonly estimate: CertStat;
  readonly se: CertStat;
  readonly ci: CertInterval;
}

export interface PpiPlusPlusEstimate extends PpiEstimate {
  /** λ̂ ∈ [0, 1] (0 when the predictions are constant). */
  readonly lambda: CertStat;
  /** cov₀(Y, Ŷ)/((1 + n/N)·var₁(P)) before clipping. */
  readonly lambdaUnclipped: CertStat;
  readonly covYYhat: CertStat;
  readonly varYhatPooled: CertStat;
}

export interface PpiMeanResult {
  readonly n: number;
  readonly N: number;
  readonly z: number;
  readonly classical: PpiEstimate;
  readonly judgeOnly: PpiEstimate;
  /** PPI with λ fixed at 1. */
  readonly ppi: PpiEstimate & { readonly lambda: 1 };
  readonly ppiPlusPlus: PpiPlusPlusEstimate;
  /**
   * Human labels the classical estimator would need for PPI++'s standard error:
   * n·se_classical²/se_PPI++². Null when either SE is undefined or PPI++'s SE is 0.
   */
  readonly effectiveLabels: CertStat;
}

function mean(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i];
  return s / v.length;
}

/** Σ(v − mean v)², the sum of squared deviations. */
function sumSquares(v: ArrayLike<number>): number {
  const m = mean(v);
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] - m) ** 2;
  return s;
}

/** Population variance (ddof = 0), as numpy's `.std()**2` that ppi_py uses for every SE. */
function var0(v: ArrayLike<number>): number {
  return sumSquares(v) / v.length;
}

function unavailable(reason: CertificationReason): PpiEstimate {
  return { estimate: certNull(reason), se: certNull(reason), ci: certNoInterval(reason) };
}

function checkUnit(v: ArrayLike<number>, what: string): void {
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!(x >= 0 && x <= 1)) throw new RangeError(`${what}[${i}] must be in [0, 1], got ${x}`);
  }
}

/**
 * PPI_λ point estimate and standard error for a given λ (λ = 0 is classical, λ = 1 is PPI).
 * Formula: θ̂_λ = λ·mean(Ŷᵘ) + mean(Y − λŶ); se = √(λ²·sd₀(Ŷᵘ)²/N + sd₀(Y − λŶ)²/n).
 * @see Angelopoulos, Duchi & Zrnic (2023) PPI++, arXiv 2311.01453, §2; ppi_py `ppi_mean_ci`; STATS-2.md §3.3.
 */
export function ppiLambdaMean(
  y: ArrayLike<number>,
  yhat: ArrayLike<number>,
  yhatUnlabelled: ArrayLike<number>,
  lambda: number,
): { estimate: number; se: number } {
  const n = y.length;
  const N = yhatUnlabelled.length;
  const rectifier = Float64Array.from({ length: n }, (_, i) => y[i] - lambda * yhat[i]);
  const scaled = Float64Array.from({ length: N }, (_, i) => lambda * yhatUnlabelled[i]);
  return {
    estimate: mean(scaled) + mean(rectifier),
    se: Math.sqrt(var0(scaled) / N + var0(rectifier) / n),
  };
}

/**
 * Classical, judge-only, PPI and PPI++ estimates of a mean with their 95 % (or 1 − α) intervals.
 * Y and Ŷ are on the same n labelled items (a uniform random sample of the pool); Ŷᵘ on N others.
 * Formula: classical Ȳ ± z·sd₀(Y)/√n; judge-only mean(P) ± z·sd₀(P)/√(n+N), P = Ŷ ∪ Ŷᵘ;
 * PPI = mean(Ŷᵘ) + mean(Y − Ŷ); PPI++ = PPI_λ̂ with λ̂ = clip₀¹(cov₀(Y, Ŷ)/((1 + n/N)·var₁(P))).
 * @see Angelopoulos, Bates, Fannjiang, Jordan & Zrnic (2023) "Prediction-powered inference", Science 382;
 * Angelopoulos, Duchi & Zrnic (2023) PPI++, arXiv 2311.01453; ppi_py 0.2.3; STATS-2.md §3.
 */
export function ppiMean(
  y: ArrayLike<number>,
  yhat: ArrayLike<number>,
  yhatUnlabelled: ArrayLike<number>,
  opts: { alpha?: number } = {},
): PpiMeanResult {
  sameLength(y, yhat, 'PPI labelled items');
  checkUnit(y, 'Y');
  checkUnit(yhat, 'Yhat');
  checkUnit(yhatUnlabelled, 'Yhat_unlabelled');
  const alpha = opts.alpha ?? 0.05;
  const z = alpha === 0.05 ? Z_975 : zForLevel(1 - alpha);
  const n = y.length;
  const N = yhatUnlabelled.length;

  let classical: PpiEstimate;
  if (n === 0) classical = unavailable('no_labelled_items');
  else if (n === 1) {
    classical = { estimate: certValue(y[0]), se: certNull('too_few_labelled_items'), ci: certNoInterval('too_few_labelled_items') };
  } else {
    const estimate = certValue(mean(y));
    const se = certValue(Math.sqrt(var0(y) / n));
    classical = { estimate, se, ci: normalInterval(estimate, se, z) };
  }

  const pooled = new Float64Array(n + N);
  for (let i = 0; i < n; i++) pooled[i] = yhat[i];
  for (let i = 0; i < N; i++) pooled[n + i] = yhatUnlabelled[i];
  let judgeOnly: PpiEstimate;
  if (n + N === 0) judgeOnly = unavailable('no_items');
  else if (n + N === 1) {
    judgeOnly = { estimate: certValue(pooled[0]), se: certNull('too_few_items'), ci: certNoInterval('too_few_items') };
  } else {
    const estimate = certValue(mean(pooled));
    const se = certValue(Math.sqrt(var0(pooled) / (n + N)));
    judgeOnly = { estimate, se, ci: normalInterval(estimate, se, z) };
  }

  // PPI and PPI++ need two items on each side; reasons are checked in the order n, then N.
  const reason: CertificationReason | null =
    n === 0
      ? 'no_labelled_items'
      : n === 1
        ? 'too_few_labelled_items'
        : N === 0
          ? 'no_unlabelled_items'
          : N === 1
            ? 'too_few_unlabelled_items'
            : null;
  if (reason !== null) {
    return {
      n,
      N,
      z,
      classical,
      judgeOnly,
      ppi: { ...unavailable(reason), lambda: 1 },
      ppiPlusPlus: {
        ...unavailable(reason),
        lambda: certNull(reason),
        lambdaUnclipped: certNull(reason),
        covYYhat: certNull(reason),
        varYhatPooled: certNull(reason),
      },
      effectiveLabels: certNull(reason),
    };
  }

  const one = ppiLambdaMean(y, yhat, yhatUnlabelled, 1);
  const ppiEst = certValue(one.estimate);
  const ppiSe = certValue(one.se);

  const my = mean(y);
  const myhat = mean(yhat);
  let cov = 0;
  for (let i = 0; i < n; i++) cov += (y[i] - my) * (yhat[i] - myhat);
  cov /= n; // ddof 0, as ppi_py's λ numerator
  const varPooled = sumSquares(pooled) / (n + N - 1); // ddof 1, as ppi_py's np.cov
  let lambda: number;
  let lambdaUnclipped: CertStat;
  if (varPooled === 0) {
    // Every λ gives the classical estimate and SE here; ppi_py returns NaN, Concord shows λ̂ = 0.
    lambda = 0;
    lambdaUnclipped = certNull('constant_predictions');
  } else {
    const raw = cov / ((1 + n / N) * varPooled);
    lambda = Math.min(1, Math.max(0, raw));
    lambdaUnclipped = certValue(raw);
  }
  const tuned = ppiLambdaMean(y, yhat, yhatUnlabelled, lambda);
  const ppEst = certValue(tuned.estimate);
  const ppSe = certValue(tuned.se);
  const seClassical = classical.se.value;
  const effectiveLabels =
    seClassical === null
      ? certNull('too_few_labelled_items')
      : tuned.se === 0
        ? certNull('constant_input')
        : certValue((n * seClassical ** 2) / tuned.se ** 2);
  return {
    n,
    N,
    z,
    classical,
    judgeOnly,
    ppi: { estimate: ppiEst, se: ppiSe, ci: normalInterval(ppiEst, ppiSe, z), lambda: 1 },
    ppiPlusPlus: {
      estimate: ppEst,
      se: ppSe,
      ci: normalInterval(ppEst, ppSe, z),
      lambda: certValue(lambda),
      lambdaUnclipped,
      covYYhat: certValue(cov),
      varYhatPooled: certValue(varPooled),
    },
    effectiveLabels,
  };
}

/**
 * Per-item outcomes in [0, 1] for PPI from label codes: pairwise codes under a tie policy that
 * gives each item a value (`half`: Win 1, Tie ½, Lose 0; `non_win`: Tie 0), or rubric codes with
 * the set of desired labels (1 if desired). A missing code throws: pair the human and judge labels
 * of the labelled items first, so Y and Ŷ stay aligned. The `exclude` policy is a ratio
 * W/(W + L), not a per-item mean, and is refused.
 * Formula: y_i = 1[win] + ½·1[tie] (half) | 1[win] (non_win) | 1[c_i ∈ desired] (rubric).
 * @see DESIGN.md "Certifying a judge" (win rate or desired-label share); STATS.md §5.1 (tie policies).
 */
export function ppiOutcomes(
  codes: LabelCodes,
  scoring: { kind: 'pairwise'; policy: TiePolicy; codes?: OutcomeCodes } | { kind: 'rubric'; desired: readonly number[]; q: number },
): number[] {
  const out: number[] = [];
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (isMissing(c)) throw new RangeError(`code ${i} is missing: PPI needs a value for every item`);
    const code = c as number;
    // The scoring's tag, not a study read (test/architecture.test.ts (i)): pure maths, which imports no kinds.
    if (scoring.kind === 'pairwise') {
      if (scoring.policy === 'exclude') throw new Error('PPI needs a per-item value: use the half or non_win tie policy');
      const { lose, tie, win } = scoring.codes ?? { lose: 0, tie: 1, win: 2 };
      if (code === win) out.push(1);
      else if (code === tie) out.push(scoring.policy === 'half' ? 0.5 : 0);
      else if (code === lose) out.push(0);
      else throw new RangeError(`code ${code} is not a pairwise outcome`);
    } else {
      if (!Number.isInteger(code) || code >= scoring.q) throw new RangeError(`code ${code} is not in the declared label set`);
      out.push(scoring.desired.includes(code) ? 1 : 0);
    }
  }
  return out;
}
