/**
 * Win rates of pairwise Win/Tie/Lose labels under an explicit tie policy, and the FastChat
 * consolidation of position-swapped judgments.
 *
 * Pairwise codes follow the declared ordinal order `PAIRWISE_LABELS` = lose < tie < win
 * (0, 1, 2), read from the side of the model being scored.
 */
import { type LabelCodes, type Stat, ratio } from './types';

/** Declared pairwise label set in ordinal order; codes are the indices (lose 0, tie 1, win 2). */
export const PAIRWISE_LABELS = ['lose', 'tie', 'win'] as const;
export const LOSE = 0;
export const TIE = 1;
export const WIN = 2;

/** Which code means what, when a label set is declared in another order. */
export interface OutcomeCodes {
  readonly lose: number;
  readonly tie: number;
  readonly win: number;
}
const DEFAULT_CODES: OutcomeCodes = { lose: LOSE, tie: TIE, win: WIN };

/**
 * Tie policy: `half` = a tie is half a win (default; Chatbot Arena, FastChat "adjusted"),
 * `non_win` = a tie is not a win (FastChat `win_rate`, MathTutorBench), `exclude` = ties are
 * left out of the denominator.
 */
export type TiePolicy = 'half' | 'non_win' | 'exclude';
export const TIE_POLICIES: readonly TiePolicy[] = ['half', 'non_win', 'exclude'];

export interface WtlCounts {
  readonly win: number;
  readonly tie: number;
  readonly loss: number;
}

/**
 * Win/tie/loss counts of pairwise codes (missing codes are counted apart); `items` optionally
 * lists the item indices to use, with repetition.
 * Formula: W = #{c = win}, T = #{c = tie}, L = #{c = lose}.
 * @see STATS.md §5.1 ("store W/T/L counts").
 */
export function wtlCounts(
  codes: LabelCodes,
  opts: { items?: ArrayLike<number>; codes?: OutcomeCodes } = {},
): WtlCounts & { readonly missing: number } {
  const { lose, tie, win } = opts.codes ?? DEFAULT_CODES;
  const items = opts.items;
  const n = items ? items.length : codes.length;
  let w = 0;
  let t = 0;
  let l = 0;
  let missing = 0;
  for (let j = 0; j < n; j++) {
    const c = codes[items ? items[j] : j];
    if (c === win) w++;
    else if (c === tie) t++;
    else if (c === lose) l++;
    else if (c === null || c < 0) missing++;
    else throw new RangeError(`code ${c} is not a pairwise outcome`);
  }
  return { win: w, tie: t, loss: l, missing };
}

/**
 * Win rate under a tie policy.
 * Formula: half (W + T/2)/(W + T + L); non_win W/(W + T + L); exclude W/(W + L).
 * @see Zheng et al. (2023) MT-Bench/FastChat `show_result.py`; Chiang et al. (2024) Chatbot Arena;
 * Macina et al. (2025) MathTutorBench; STATS.md §5.1.
 */
export function winRate(counts: WtlCounts, policy: TiePolicy = 'half'): Stat {
  const { win, tie, loss } = counts;
  switch (policy) {
    case 'half':
      return ratio(win + tie / 2, win + tie + loss, 'no_items');
    case 'non_win':
      return ratio(win, win + tie + loss, 'no_items');
    case 'exclude':
      return ratio(win, win + loss, win + tie + loss === 0 ? 'no_items' : 'no_comparisons');
    default:
      throw new Error(`unknown tie policy: ${String(policy satisfies never)}`);
  }
}

/** Win rate under every tie policy, plus the win-or-tie rate. */
export interface WinRates {
  readonly half: Stat;
  readonly non_win: Stat;
  readonly exclude: Stat;
  /** (W + T)/(W + T + L), sometimes reported. */
  readonly win_or_tie: Stat;
}

/**
 * Win rate under all three tie policies and the win-or-tie rate.
 * Formula: see `winRate`; win_or_tie = (W + T)/(W + T + L).
 * @see STATS.md §5.1.
 */
export function winRates(counts: WtlCounts): WinRates {
  return {
    half: winRate(counts, 'half'),
    non_win: winRate(counts, 'non_win'),
    exclude: winRate(counts, 'exclude'),
    win_or_tie: ratio(counts.win + counts.tie, counts.win + counts.tie + counts.loss, 'no_items'),
  };
}

/**
 * Consolidates a judgment and its position-swapped repeat, both in the canonical orientation:
 * the outcome stands only when both agree and it is not a tie; otherwise it is a tie. Missing
 * when either is missing.
 * Formula: g = g1 if g1 = g2 ≠ tie, else tie.
 * @see Zheng et al. (2023) MT-Bench; FastChat `show_result.py` `display_result_pairwise`; STATS.md §5.1.
 */
export function consolidatePositionSwap(original: LabelCodes, swapped: LabelCodes, opts: { codes?: OutcomeCodes } = {}): Int8Array {
  if (original.length !== swapped.length) throw new Error('original and swapped verdicts differ in length');
  const tie = (opts.codes ?? DEFAULT_CODES).tie;
  const out = new Int8Array(original.length);
  for (let i = 0; i < original.length; i++) {
    const g1 = original[i];
    const g2 = swapped[i];
    if (g1 === null || g2 === null || g1 < 0 || g2 < 0) out[i] = -1;
    else out[i] = g1 === tie || g1 !== g2 ? tie : g1;
  }
  return out;
}
