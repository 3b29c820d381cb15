/**
 * Rank agreement between two graders' leaderboards: Kendall's τ-b and Spearman's ρ with their
 * p-values, as scipy's defaults compute them (STATS-2 §2). Scores are numbers per model; ordinal
 * labels are passed as their index in the declared order (`ordinalScores`).
 */
import { type CertStat, type Reasoned, certValue, sameLength, twoSidedNormalP, certNull } from './certification-types';
import { regularizedBeta } from './intervals';

/** Pair counts of two score vectors (STATS-2 §2.3). */
export interface PairCounts {
  readonly n: number;
  /** Pairs both graders order the same way. */
  readonly concordant: number;
  /** Pairs the graders order oppositely. */
  readonly discordant: number;
  /** Pairs tied by grader a (n₁), by grader b (n₂), by both (n₃). */
  readonly tiedA: number;
  readonly tiedB: number;
  readonly tiedBoth: number;
}

export interface RankCorrelation extends PairCounts {
  readonly tauB: CertStat;
  readonly tauBPValue: CertStat;
  readonly kendallPMethod: Reasoned<'exact' | 'asymptotic'>;
  /** Tie-corrected Var(S) and z = S/√Var(S), present only on the asymptotic path. */
  readonly kendallVarS?: number;
  readonly kendallZ?: number;
  /** Mid-ranks, 1-based. */
  readonly ranksA: number[];
  readonly ranksB: number[];
  readonly spearmanRho: CertStat;
  readonly spearmanPValue: CertStat;
  readonly spearmanPMethod: Reasoned<'t_distribution_df_n_minus_2'>;
}

/**
 * Scores of ordinal labels: each label's 0-based index in the declared order (lowest first).
 * Throws on an undeclared label.
 * Formula: score(x) = k such that declared[k] = x.
 * @see STATS-2.md §2.2 ("Ordinal labels are mapped to their 0-based index in the declared order").
 */
export function ordinalScores<L extends string | number>(labels: readonly L[], declared: readonly L[]): number[] {
  const index = new Map<L, number>(declared.map((l, k) => [l, k]));
  return labels.map((l) => {
    const k = index.get(l);
    if (k === undefined) throw new Error(`label ${JSON.stringify(l)} is not in the declared label set`);
    return k;
  });
}

/**
 * Mid-ranks (1-based; tied values share the mean of the positions they occupy).
 * Formula: r_i = (first + last)/2 over the 1-based sorted positions of the tie group of v_i.
 * @see Kendall (1970) ch. 3 (mid-rank method); scipy.stats.rankdata(method='average').
 */
export function averageRanks(values: readonly number[]): number[] {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => values[i] - values[j]);
  const ranks = new Array<number>(n);
  for (let start = 0; start < n;) {
    let end = start + 1;
    while (end < n && values[order[end]] === values[order[start]]) end++;
    const mid = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k]] = mid;
    start = end;
  }
  return ranks;
}

/**
 * Concordant, discordant and tied pairs of two score vectors, O(n²).
 * Formula: over i < j, s_a = sgn(a_i − a_j), s_b = sgn(b_i − b_j); C = #{s_a s_b > 0}, D = #{s_a s_b < 0},
 * n₁ = #{s_a = 0}, n₂ = #{s_b = 0}, n₃ = #{s_a = s_b = 0}.
 * @see Kendall (1970) ch. 3; STATS-2.md §2.3.
 */
export function pairCounts(a: readonly number[], b: readonly number[]): PairCounts {
  sameLength(a, b, 'rank correlation');
  const n = a.length;
  let concordant = 0;
  let discordant = 0;
  let tiedA = 0;
  let tiedB = 0;
  let tiedBoth = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const sa = Math.sign(a[i] - a[j]);
      const sb = Math.sign(b[i] - b[j]);
      if (sa === 0) tiedA++;
      if (sb === 0) tiedB++;
      if (sa === 0 && sb === 0) tiedBoth++;
      const s = sa * sb;
      if (s > 0) concordant++;
      else if (s < 0) discordant++;
    }
  }
  return { n, concordant, discordant, tiedA, tiedB, tiedBoth };
}

/**
 * Exact two-sided p-value of Kendall's S without ties, from the number of permutations with k
 * inversions (probability form, so n! never overflows).
 * Formula: p = min(1, 2·Σ_{k=0}^{c} P_n(k)), c = min(C, D); P_j(k) = (1/j)·Σ_{i=0}^{min(k,j−1)} P_{j−1}(k − i), P₁(0) = 1.
 * @see Kendall (1970) ch. 4 (exact null distribution); STATS-2.md §2.3.
 */
export function kendallExactPValue(n: number, c: number): number {
  if (n < 2) throw new RangeError(`the exact Kendall distribution needs n ≥ 2, got ${n}`);
  if (2 * c >= (n * (n - 1)) / 2) return 1;
  let prev = new Float64Array(c + 1);
  prev[0] = 1;
  for (let j = 2; j <= n; j++) {
    // Sliding window sum of prev[k − j + 1 .. k].
    const next = new Float64Array(c + 1);
    let window = 0;
    for (let k = 0; k <= c; k++) {
      window += prev[k];
      if (k - j >= 0) window -= prev[k - j];
      next[k] = window / j;
    }
    prev = next;
  }
  let sum = 0;
  for (let k = 0; k <= c; k++) sum += prev[k];
  return Math.min(1, 2 * sum);
}

/** Σ over the tie groups of v of f(group size). */
function tieSum(values: readonly number[], f: (t: number) => number): number {
  const sorted = [...values].sort((x, y) => x - y);
  let sum = 0;
  for (let start = 0; start < sorted.length;) {
    let end = start + 1;
    while (end < sorted.length && sorted[end] === sorted[start]) end++;
    sum += f(end - start);
    start = end;
  }
  return sum;
}

/**
 * Tie-corrected variance of Kendall's S under independence.
 * Formula: [n(n−1)(2n+5) − Σt(t−1)(2t+5) − Σu(u−1)(2u+5)]/18 + Σt(t−1)·Σu(u−1)/(2n(n−1))
 * + Σt(t−1)(t−2)·Σu(u−1)(u−2)/(9n(n−1)(n−2)).
 * @see Kendall (1970) eq. 4.3; STATS-2.md §2.3.
 */
export function kendallVarianceS(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  const v0 = n * (n - 1) * (2 * n + 5);
  const vt = tieSum(a, (t) => t * (t - 1) * (2 * t + 5));
  const vu = tieSum(b, (u) => u * (u - 1) * (2 * u + 5));
  const t1 = tieSum(a, (t) => t * (t - 1));
  const u1 = tieSum(b, (u) => u * (u - 1));
  const t2 = tieSum(a, (t) => t * (t - 1) * (t - 2));
  const u2 = tieSum(b, (u) => u * (u - 1) * (u - 2));
  const third = n > 2 ? (t2 * u2) / (9 * n * (n - 1) * (n - 2)) : 0;
  return (v0 - vt - vu) / 18 + (t1 * u1) / (2 * n * (n - 1)) + third;
}

/** Pearson correlation of two vectors (assumed non-constant). */
function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

function isConstant(v: readonly number[]): boolean {
  return v.every((x) => x === v[0]);
}

/**
 * Kendall's τ-b and Spearman's ρ between two graders' scores of the same models, with the
 * p-values scipy computes by default (exact Kendall without ties for n ≤ 33 or min(C, D) ≤ 1,
 * otherwise normal with tie-corrected variance; Spearman via Student t with n − 2 df).
 * Formula: τ_b = (C − D)/√((n₀ − n₁)(n₀ − n₂)); ρ = Pearson(rank(a), rank(b)); t = ρ√((n−2)/(1−ρ²)).
 * @see Kendall (1970) Rank Correlation Methods; scipy.stats.kendalltau(variant='b') and spearmanr; STATS-2.md §2.
 */
export function rankCorrelation(scoresA: readonly number[], scoresB: readonly number[]): RankCorrelation {
  sameLength(scoresA, scoresB, 'rank correlation');
  for (const s of [...scoresA, ...scoresB]) {
    if (!Number.isFinite(s)) throw new RangeError(`scores must be finite numbers, got ${s}`);
  }
  const counts = pairCounts(scoresA, scoresB);
  const ranksA = averageRanks(scoresA);
  const ranksB = averageRanks(scoresB);
  const { n, concordant: C, discordant: D, tiedA, tiedB } = counts;
  const reason = n < 2 ? 'too_few_items' : isConstant(scoresA) || isConstant(scoresB) ? 'constant_input' : null;
  if (reason !== null) {
    return {
      ...counts,
      tauB: certNull(reason),
      tauBPValue: certNull(reason),
      kendallPMethod: certNull(reason),
      ranksA,
      ranksB,
      spearmanRho: certNull(reason),
      spearmanPValue: certNull(reason),
      spearmanPMethod: certNull(reason),
    };
  }
  const n0 = (n * (n - 1)) / 2;
  const tau = Math.max(-1, Math.min(1, (C - D) / Math.sqrt((n0 - tiedA) * (n0 - tiedB))));
  let kendall: Pick<RankCorrelation, 'tauBPValue' | 'kendallPMethod' | 'kendallVarS' | 'kendallZ'>;
  if (tiedA === 0 && tiedB === 0 && (n <= 33 || Math.min(C, D) <= 1)) {
    kendall = { tauBPValue: certValue(kendallExactPValue(n, Math.min(C, D))), kendallPMethod: certValue('exact') };
  } else {
    const varS = kendallVarianceS(scoresA, scoresB);
    const z = (C - D) / Math.sqrt(varS);
    kendall = { tauBPValue: certValue(twoSidedNormalP(z)), kendallPMethod: certValue('asymptotic'), kendallVarS: varS, kendallZ: z };
  }
  const rho = pearson(ranksA, ranksB);
  const spearmanP = spearmanPValue(rho, n);
  const spearmanPMethod: RankCorrelation['spearmanPMethod'] =
    spearmanP.value === null ? certNull(spearmanP.reason) : certValue('t_distribution_df_n_minus_2');
  return {
    ...counts,
    tauB: certValue(tau),
    ...kendall,
    ranksA,
    ranksB,
    spearmanRho: certValue(rho),
    spearmanPValue: spearmanP,
    spearmanPMethod,
  };
}

/**
 * Two-sided p-value of a Spearman correlation via Student's t with n − 2 df, in the incomplete-beta
 * form that keeps tiny p-values accurate (|ρ| = 1 gives t = ∞ and p = 0).
 * Formula: t = ρ·√((n−2)/((1−ρ)(1+ρ))), p = 2·(1 − F_{n−2}(|t|)) = I_{(1−ρ)(1+ρ)}((n−2)/2, ½).
 * @see scipy.stats.spearmanr; STATS-2.md §2.3.
 */
export function spearmanPValue(rho: number, n: number): CertStat {
  if (n < 2) return certNull('too_few_items');
  if (n === 2) return certNull('df_zero');
  const oneMinusRho2 = (1 - rho) * (1 + rho);
  return certValue(oneMinusRho2 <= 0 ? 0 : regularizedBeta(oneMinusRho2, (n - 2) / 2, 0.5));
}
