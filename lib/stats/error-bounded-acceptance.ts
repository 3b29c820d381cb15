/**
 * Error-bounded acceptance of a judge's decisions (STATS-3 part F): accept the judge's label without
 * human review only in the strata (predicted class, or confidence bin) whose error rate is certified
 * below ε with probability ≥ 1 − δ over the calibration sample, family-wise over the strata. It replaces
 * the point-estimate rule of the hybrid plan (STATS.md 2.8), which has no guarantee.
 */
import { binomialCdf, clopperPearsonUpper } from './binomial-bound';
import { type Maybe, none, some } from './stats3-types';

/** One stratum: n human-labelled calibration items, `errors` of them where the judge was wrong, `pool` items in all (including the n). */
export interface AcceptanceStratum {
  readonly name: string;
  readonly n: number;
  readonly errors: number;
  readonly pool: number;
}

/**
 * `bonferroni` / `holm` across unordered strata (e.g. predicted class); `fixed_sequence` across strata
 * in an order fixed before the labels are seen (e.g. confidence bins, high → low).
 */
export type AcceptanceMethod = 'bonferroni' | 'holm' | 'fixed_sequence';

/** `per_stratum` certifies each accepted stratum; `cumulative` (fixed sequence only) the accepted set as a whole. */
export type AcceptanceHypotheses = 'per_stratum' | 'cumulative';

export interface AcceptanceOptions {
  readonly epsilon: number;
  readonly delta: number;
  readonly method: AcceptanceMethod;
  readonly hypotheses?: AcceptanceHypotheses;
}

export interface AcceptedStratum {
  readonly name: string;
  readonly n: number;
  readonly errors: number;
  readonly errorRate: Maybe<number>;
  /** P(Bin(n, ε) ≤ errors); 1 when n = 0. */
  readonly pValue: number;
  /** U(δ): this stratum's own bound. */
  readonly cpUpperDelta: Maybe<number>;
  /** U(δ/m): simultaneous over the strata. */
  readonly cpUpperBonferroni: Maybe<number>;
  /** Bonferroni/Holm-adjusted p (statsmodels `multipletests`); absent for fixed sequence. */
  readonly pAdjusted?: Maybe<number>;
  /** The level this stratum was tested at. */
  readonly alphaUsed: Maybe<number>;
  readonly accepted: boolean;
}

export interface CumulativeStep {
  /** Name of the last stratum pooled in this step. */
  readonly through: string;
  readonly n: number;
  readonly errors: number;
  readonly pValue: number;
  readonly cpUpperDelta: Maybe<number>;
}

export interface AcceptanceResult {
  /** Number of testable strata (n ≥ 1). */
  readonly m: number;
  readonly perStratum: AcceptedStratum[];
  /** Names of the accepted strata, in list order. */
  readonly accepted: string[];
  /**
   * The pooled tests that were run, in order, up to and including the first that failed (cumulative only); a
   * stratum without calibration items fails its step with p = 1.
   */
  readonly cumulativeSteps?: CumulativeStep[];
  /** Items the judge's label is kept for: Σ_accepted (pool − n). */
  readonly judgeLabelledItems: number;
  /** Σ n + Σ_not accepted (pool − n). */
  readonly humanLabels: number;
  /** Share of the not yet human-labelled items the judge labels. */
  readonly coverage: Maybe<number>;
  /** 1 − human labels / all items. */
  readonly effortSaved: Maybe<number>;
  /** ε, the certified bound on each accepted stratum's (or the accepted set's) error rate; null when nothing is accepted. */
  readonly errorBound: Maybe<number>;
  /** ε·Σ_accepted (pool − n)/Σ pool: bound on the expected share of wrong labels in the final data, human labels taken as right. */
  readonly finalErrorRateBound: Maybe<number>;
  /** Σ_accepted (pool − n)·errors/n: the point estimate. */
  readonly estimatedJudgeErrors: number;
}

function checkStratum(s: AcceptanceStratum): void {
  const ok = [s.n, s.errors, s.pool].every((v) => Number.isInteger(v) && v >= 0) && s.errors <= s.n && s.n <= s.pool;
  if (!ok) throw new RangeError(`stratum ${s.name}: need integers 0 ≤ errors ≤ n ≤ pool, got ${s.errors}/${s.n}/${s.pool}`);
}

/**
 * Decides which strata to accept and what it saves.
 * Formula: p_j = P(Bin(n_j, ε) ≤ k_j); bonferroni: accept iff p_j ≤ δ/m; holm: step down over ascending
 * p at δ/(m − r + 1); fixed_sequence: in list order at δ until the first p > δ, per stratum or on the
 * pooled counts of strata 1..j (cumulative). Each rule keeps P(some accepted stratum or set has error ≥ ε) ≤ δ.
 * @see Holm (1979) Scand. J. Statist. 6; Angelopoulos et al. (2021) Learn then Test; Jung, Brahman &
 * Choi (2025) Trust or Escalate; STATS-3 §7.
 */
export function errorBoundedAcceptance(strata: readonly AcceptanceStratum[], opts: AcceptanceOptions): AcceptanceResult {
  const { epsilon, delta, method } = opts;
  const hypotheses = opts.hypotheses ?? 'per_stratum';
  if (!(epsilon > 0 && epsilon < 1)) throw new RangeError(`ε must be in (0, 1), got ${epsilon}`);
  if (!(delta > 0 && delta < 1)) throw new RangeError(`δ must be in (0, 1), got ${delta}`);
  if (hypotheses === 'cumulative' && method !== 'fixed_sequence') throw new RangeError('cumulative hypotheses need fixed_sequence');
  strata.forEach(checkStratum);

  const testable = strata.map((s) => s.n >= 1);
  const m = testable.filter(Boolean).length;
  const p = strata.map((s) => (s.n >= 1 ? binomialCdf(s.errors, s.n, epsilon) : 1));
  const accepted = new Array<boolean>(strata.length).fill(false);
  // Level each stratum was tested at; undefined = not reached.
  const level = new Array<number | undefined>(strata.length).fill(undefined);
  let pAdjusted: Array<number | null> | undefined;
  let cumulativeSteps: CumulativeStep[] | undefined;

  if (method === 'bonferroni') {
    strata.forEach((_, j) => {
      if (!testable[j]) return;
      level[j] = delta / m;
      accepted[j] = p[j] <= delta / m;
    });
    pAdjusted = strata.map((_, j) => (testable[j] ? Math.min(1, m * p[j]) : null));
  } else if (method === 'holm') {
    // Ascending p; Array.prototype.sort is stable, so ties keep list order (STATS-3 §7.4).
    const order = strata
      .map((_, j) => j)
      .filter((j) => testable[j])
      .sort((a, b) => p[a] - p[b]);
    for (let r = 0; r < order.length; r++) {
      const j = order[r];
      level[j] = delta / (m - r);
      if (p[j] > delta / (m - r)) break;
      accepted[j] = true;
    }
    pAdjusted = new Array<number | null>(strata.length).fill(null);
    let running = 0;
    order.forEach((j, r) => {
      running = Math.max(running, Math.min(1, (m - r) * p[j]));
      pAdjusted![j] = running;
    });
  } else if (hypotheses === 'per_stratum') {
    for (let j = 0; j < strata.length; j++) {
      level[j] = delta;
      if (p[j] > delta) break;
      accepted[j] = true;
    }
  } else {
    // Pooling presumes the calibration items are a simple random sample of the pool (the same rate in every stratum).
    cumulativeSteps = [];
    let n = 0;
    let errors = 0;
    let lastPassing = -1;
    for (let j = 0; j < strata.length; j++) {
      n += strata[j].n;
      errors += strata[j].errors;
      level[j] = delta;
      // A stratum without calibration items is never accepted (STATS-3 §7.4), and pooling it would break the
      // same-rate assumption, so it ends the sequence here like a failing test.
      const pj = strata[j].n >= 1 ? binomialCdf(errors, n, epsilon) : 1;
      cumulativeSteps.push({
        through: strata[j].name,
        n,
        errors,
        pValue: pj,
        cpUpperDelta: n >= 1 ? some(clopperPearsonUpper(errors, n, delta)) : none('no_calibration_items'),
      });
      if (pj > delta) break;
      lastPassing = j;
    }
    for (let j = 0; j <= lastPassing; j++) accepted[j] = true;
  }

  const perStratum: AcceptedStratum[] = strata.map((s, j) => {
    const bound = (gamma: number): Maybe<number> =>
      testable[j] ? some(clopperPearsonUpper(s.errors, s.n, gamma)) : none('no_calibration_items');
    const lv = level[j];
    return {
      name: s.name,
      n: s.n,
      errors: s.errors,
      errorRate: testable[j] ? some(s.errors / s.n) : none('no_calibration_items'),
      pValue: p[j],
      cpUpperDelta: bound(delta),
      cpUpperBonferroni: testable[j] ? bound(delta / m) : none('no_calibration_items'),
      ...(pAdjusted === undefined
        ? {}
        : { pAdjusted: pAdjusted[j] === null ? none('no_calibration_items') : some(pAdjusted[j] as number) }),
      alphaUsed: !testable[j] ? none('no_calibration_items') : lv === undefined ? none('not_tested') : some(lv),
      accepted: accepted[j],
    };
  });

  let totalPool = 0;
  let totalRest = 0;
  let acceptedRest = 0;
  let humanLabels = 0;
  let estimatedJudgeErrors = 0;
  strata.forEach((s, j) => {
    const rest = s.pool - s.n;
    totalPool += s.pool;
    totalRest += rest;
    humanLabels += s.n;
    if (accepted[j]) {
      acceptedRest += rest;
      estimatedJudgeErrors += (rest * s.errors) / s.n;
    } else {
      humanLabels += rest;
    }
  });
  const anyAccepted = accepted.some(Boolean);
  return {
    m,
    perStratum,
    accepted: strata.filter((_, j) => accepted[j]).map((s) => s.name),
    ...(cumulativeSteps === undefined ? {} : { cumulativeSteps }),
    judgeLabelledItems: acceptedRest,
    humanLabels,
    coverage: totalRest > 0 ? some(acceptedRest / totalRest) : none('no_items'),
    effortSaved: totalPool > 0 ? some(1 - humanLabels / totalPool) : none('no_items'),
    errorBound: anyAccepted ? some(epsilon) : none('nothing_accepted'),
    finalErrorRateBound: totalPool > 0 ? some((epsilon * acceptedRest) / totalPool) : none('no_items'),
    estimatedJudgeErrors,
  };
}
