/**
 * Position bias of pairwise verdicts (STATS-2 §6): a judge run in both orders (flip and reversal
 * rates, preference for the first-shown reply) and human reviewers with the display order stored
 * per (item, reviewer). Verdicts are pairwise codes read from a's side, in the declared order
 * lose < tie < win (`PAIRWISE_LABELS`).
 */
import {
  type CertInterval,
  type CertStat,
  type CertificationReason,
  Z_975,
  certInterval,
  certValue,
  certNoInterval,
  certNull,
} from './certification-types';
import { logGamma, wilsonInterval } from './intervals';
import { isMissing } from './types';
import { LOSE, type OutcomeCodes, TIE, WIN } from './winrate';

const DEFAULT_CODES: OutcomeCodes = { lose: LOSE, tie: TIE, win: WIN };

/** Share k/n of first-shown preferences with its Wilson 95 % interval and exact binomial test. */
export interface FirstPreference {
  readonly count: number;
  readonly decisive: number;
  readonly rate: CertStat;
  readonly wilson95: CertInterval;
  readonly binomPValue: CertStat;
}

/**
 * Exact two-sided binomial test against ½, in exact integer arithmetic (BigInt) so no term
 * underflows before the final division.
 * Formula: p = min(1, 2·Σ_{i=0}^{min(k, n−k)} C(n, i)/2ⁿ); p = 1 when 2k = n.
 * @see scipy.stats.binomtest(k, n, 0.5); STATS-2.md §6.3.
 */
export function binomialTestHalf(k: number, n: number): number {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || k > n) throw new RangeError(`need integers 0 ≤ k ≤ n, got ${k}/${n}`);
  if (2 * k === n) return 1;
  const m = Math.min(k, n - k);
  return Math.min(1, 2 * (n <= EXACT_BINOMIAL_MAX_N ? lowerTailHalfExact(m, n) : lowerTailHalfLog(m, n)));
}

/** Up to this many verdicts the tail is summed in exact integers; above, in floating point (cost O(n²) vs O(m)). */
const EXACT_BINOMIAL_MAX_N = 2000;

/** P(X ≤ m), X ~ Bin(n, ½): Σ C(n, i) / 2ⁿ in exact integers, rounded once. */
function lowerTailHalfExact(m: number, n: number): number {
  let c = 1n;
  let sum = 1n;
  const N = BigInt(n);
  for (let i = 0; i < m; i++) {
    c = (c * (N - BigInt(i))) / BigInt(i + 1);
    sum += c;
  }
  // sum/2ⁿ as a double: keep the top 64 bits of sum and scale by a power of two.
  const shift = Math.max(0, sum.toString(2).length - 64);
  return Number(sum >> BigInt(shift)) * 2 ** (shift - n);
}

/**
 * P(X ≤ m), X ~ Bin(n, ½), m < n/2, in floating point: the largest term C(n, m)/2ⁿ through log Γ, times the sum of
 * the other terms relative to it (each is the next one times i/(n − i + 1), so they fall geometrically and the sum
 * stops once they no longer count). Relative error about 1e-12 where the result is representable.
 */
function lowerTailHalfLog(m: number, n: number): number {
  const logTop = logGamma(n + 1) - logGamma(m + 1) - logGamma(n - m + 1) - n * Math.LN2;
  let ratio = 1;
  let sum = 1;
  for (let i = m; i > 0; i--) {
    ratio *= i / (n - i + 1);
    sum += ratio;
    if (ratio < 1e-17 * sum) break;
  }
  return Math.exp(logTop) * sum;
}

/**
 * First-position preference from k first-preferred out of n decisive verdicts.
 * Formula: rate = k/n; Wilson centre (k + z²/2)/(n + z²) ± z/(n + z²)·√(k(n−k)/n + z²/4), exactly 0 at k = 0
 * and 1 at k = n; exact binomial test against ½.
 * @see Wilson (1927) JASA 22; STATS-2.md §6.3.
 */
export function firstPreference(k: number, n: number, reasonIfNone: CertificationReason = 'no_decisive_verdicts'): FirstPreference {
  if (n === 0) {
    return {
      count: k,
      decisive: 0,
      rate: certNull(reasonIfNone),
      wilson95: certNoInterval(reasonIfNone),
      binomPValue: certNull(reasonIfNone),
    };
  }
  const w = wilsonInterval(k, n, { z: Z_975 });
  const lower = k === 0 ? 0 : (w.lower as number);
  const upper = k === n ? 1 : (w.upper as number);
  return {
    count: k,
    decisive: n,
    rate: certValue(k / n),
    wilson95: certInterval(lower, upper),
    binomPValue: certValue(binomialTestHalf(k, n)),
  };
}

function outcome(code: number | null, codes: OutcomeCodes, where: string): 'win' | 'tie' | 'lose' | null {
  if (isMissing(code)) return null;
  if (code === codes.win) return 'win';
  if (code === codes.tie) return 'tie';
  if (code === codes.lose) return 'lose';
  throw new RangeError(`${where}: code ${code} is not a pairwise outcome`);
}

/** One item judged with a shown first (`aFirst`) and with b shown first (`bFirst`); null = not run. */
export interface BothOrdersVerdict {
  readonly aFirst: number | null;
  readonly bFirst: number | null;
}

export interface JudgePositionBias {
  readonly items: number;
  readonly itemsBothOrders: number;
  readonly flips: number;
  readonly reversals: number;
  /** Any change of verdict between the orders, over items judged in both. */
  readonly flipRate: CertStat;
  /** Win ↔ Lose changes only. */
  readonly reversalRate: CertStat;
  readonly firstPreferred: FirstPreference;
}

/**
 * Position bias of a judge run in both orders. Items judged in one order only are ignored, so each
 * order appears equally often and a position-neutral judge has exactly ½.
 * Formula: flip rate = #{v_a ≠ v_b}/|B|; reversal rate = #{{v_a, v_b} = {Win, Lose}}/|B|;
 * first preferred ⇔ (a first ∧ Win) ∨ (b first ∧ Lose), over the 2|B| verdicts that are not ties.
 * @see Zheng et al. (2023) MT-Bench (position bias, swap); Wang et al. (2023) "Large language models are not fair evaluators"; STATS-2.md §6.1.
 */
export function judgePositionBias(items: readonly BothOrdersVerdict[], opts: { codes?: OutcomeCodes } = {}): JudgePositionBias {
  const codes = opts.codes ?? DEFAULT_CODES;
  let both = 0;
  let flips = 0;
  let reversals = 0;
  let k = 0;
  let n = 0;
  items.forEach((it, i) => {
    const a = outcome(it.aFirst, codes, `item ${i}, a first`);
    const b = outcome(it.bFirst, codes, `item ${i}, b first`);
    if (a === null || b === null) return;
    both++;
    if (a !== b) flips++;
    if ((a === 'win' && b === 'lose') || (a === 'lose' && b === 'win')) reversals++;
    if (a !== 'tie') {
      n++;
      if (a === 'win') k++;
    }
    if (b !== 'tie') {
      n++;
      if (b === 'lose') k++;
    }
  });
  if (both === 0) {
    const no = certNull('no_items_in_both_orders');
    return {
      items: items.length,
      itemsBothOrders: 0,
      flips,
      reversals,
      flipRate: no,
      reversalRate: no,
      firstPreferred: firstPreference(0, 0, 'no_items_in_both_orders'),
    };
  }
  return {
    items: items.length,
    itemsBothOrders: both,
    flips,
    reversals,
    flipRate: certValue(flips / both),
    reversalRate: certValue(reversals / both),
    firstPreferred: firstPreference(k, n),
  };
}

/** One human verdict with the order the reviewer saw. */
export interface ShownVerdict {
  readonly item: string | number;
  readonly reviewer: string | number;
  readonly shownFirst: 'a' | 'b';
  /** Pairwise code from a's side. */
  readonly label: number;
}

export interface HumanPositionBias {
  readonly verdicts: number;
  readonly firstShownPreferred: FirstPreference;
}

/**
 * Human first-shown preference from the stored display order (one verdict per item and reviewer;
 * call it on one reviewer's records for a per-reviewer figure).
 * Formula: first-shown preferred ⇔ (shown_first = a ∧ Win) ∨ (shown_first = b ∧ Lose); rate = k/n over non-ties.
 * @see STATS-2.md §6.2; Wilson (1927); scipy.stats.binomtest.
 */
export function humanPositionBias(records: readonly ShownVerdict[], opts: { codes?: OutcomeCodes } = {}): HumanPositionBias {
  const codes = opts.codes ?? DEFAULT_CODES;
  const seen = new Set<string>();
  let k = 0;
  let n = 0;
  records.forEach((r, i) => {
    const key = `${typeof r.item}:${String(r.item)}\u0000${typeof r.reviewer}:${String(r.reviewer)}`;
    if (seen.has(key)) throw new Error(`record ${i}: a second verdict for item ${String(r.item)} by reviewer ${String(r.reviewer)}`);
    seen.add(key);
    if (r.shownFirst !== 'a' && r.shownFirst !== 'b') throw new RangeError(`record ${i}: shown_first must be a or b`);
    const o = outcome(r.label, codes, `record ${i}`);
    if (o === null) throw new RangeError(`record ${i}: missing label`);
    if (o === 'tie') return;
    n++;
    if ((r.shownFirst === 'a' && o === 'win') || (r.shownFirst === 'b' && o === 'lose')) k++;
  });
  return { verdicts: records.length, firstShownPreferred: firstPreference(k, n) };
}
