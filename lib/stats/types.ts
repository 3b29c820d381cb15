/**
 * Shared result shapes and input types of the statistics core.
 *
 * Every scalar statistic is a `Stat`: either a finite number, or `null` together with the
 * reason it is undefined. NaN, ±Infinity, or a silent 0/1 never leave this module.
 */

/** Why a statistic has no value. */
export type UndefinedReason =
  /** There is nothing to compute on (no items, no ratings, an empty table). */
  | 'no_items'
  /** Expected disagreement is zero: every rating falls in one category, so the coefficient is 0/0. */
  | 'no_variation'
  /** No item carries two or more ratings, so nothing can be paired. */
  | 'no_pairable_units'
  /** A class was never predicted (precision, class-wise accuracy) or never present (recall). */
  | 'empty_class'
  /** A class occurs in neither labelling, so its F1 is 0/0. */
  | 'absent_class'
  /** Every comparison was dropped (e.g. all pairs contain a tie when ties are excluded). */
  | 'no_comparisons'
  /** Fewer than two categories were declared. */
  | 'too_few_categories'
  /** Every input of an average was itself undefined. */
  | 'no_defined_values'
  /** A Bradley–Terry MLE does not exist: some group of models never loses to the rest. */
  | 'separation'
  /** Every bootstrap replicate was undefined. */
  | 'all_replicates_undefined';

/** A scalar statistic: a finite number, or `null` with the reason it is undefined. */
export type Stat = { readonly value: number; readonly reason?: undefined } | { readonly value: null; readonly reason: UndefinedReason };

/** A two-sided interval, or `null` bounds with the reason it is undefined. */
export type Interval =
  | { readonly lower: number; readonly upper: number; readonly reason?: undefined }
  | { readonly lower: null; readonly upper: null; readonly reason: UndefinedReason };

/** A chance-corrected coefficient with its observed (`po`) and chance (`pe`) agreement. */
export type Agreement = Stat & { readonly po: number | null; readonly pe: number | null };

/** A count of agreeing comparisons out of a total, and their share. */
export interface AgreementCount {
  readonly agree: number;
  readonly total: number;
  readonly rate: Stat;
}

/**
 * Label codes: index of each label in the declared label set; a negative number or `null`
 * marks a missing label. `Int8Array` is the compact form SQL results can be copied into.
 */
export type LabelCodes = ArrayLike<number | null>;

/** A square count table, rows = first rater (or gold/human), columns = second rater (or judge). */
export type CountTable = ReadonlyArray<ArrayLike<number>>;

/**
 * Item × category counts in row-major order: `counts[i * q + k]` = number of raters who put
 * item i in category k (Fleiss layout).
 */
export interface ItemCounts {
  readonly nItems: number;
  readonly q: number;
  readonly counts: ArrayLike<number>;
}

/** Item × category counts, either flat or as one row per item (`number[][]`). */
export type ItemCountsInput = ItemCounts | ReadonlyArray<ArrayLike<number>>;

/**
 * Item × rater label codes in row-major order: `codes[i * nRaters + j]` is rater j's code for
 * item i (negative or `null` = missing).
 */
export interface RatingMatrix {
  readonly nItems: number;
  readonly nRaters: number;
  readonly codes: LabelCodes;
}

/** Weighting of disagreements between ordered categories (indices in the declared order). */
export type Weighting = 'unweighted' | 'linear' | 'quadratic';

/**
 * A defined statistic. Throws on a non-finite number, which would indicate a bug upstream.
 * Formula: Stat = { value: x }, x finite.
 * @see STATS.md §0 item 3 (undefined values are `null` with a reason, never NaN, 0 or 1).
 */
export function defined(value: number): Stat {
  if (!Number.isFinite(value)) throw new Error(`statistic is not finite: ${value}`);
  return { value };
}

/**
 * A defined chance-corrected coefficient with its observed and chance agreement.
 * Formula: { value: (p_o − p_e)/(1 − p_e), po: p_o, pe: p_e }.
 * @see STATS.md §0 item 3 (undefined values are `null` with a reason, never NaN, 0 or 1).
 */
export function definedAgreement(value: number, po: number | null, pe: number | null): Agreement {
  if (!Number.isFinite(value)) throw new Error(`statistic is not finite: ${value}`);
  return { value, po, pe };
}

/**
 * An undefined chance-corrected coefficient with its reason (and p_o, p_e where known).
 * Formula: { value: null, reason, po, pe }.
 * @see STATS.md §0 item 3 (undefined values are `null` with a reason, never NaN, 0 or 1).
 */
export function undefinedAgreement(reason: UndefinedReason, po: number | null, pe: number | null): Agreement {
  return { value: null, reason, po, pe };
}

/**
 * An undefined statistic with its reason.
 * Formula: Stat = { value: null, reason }.
 * @see STATS.md §0 item 3 (undefined values are `null` with a reason, never NaN, 0 or 1).
 */
export function undefinedStat(reason: UndefinedReason): Stat {
  return { value: null, reason };
}

/**
 * A ratio that is undefined, with `reason`, when its denominator is 0.
 * Formula: num / den if den ≠ 0, else null.
 * @see STATS.md §0 item 3 (undefined values are `null` with a reason, never NaN, 0 or 1).
 */
export function ratio(num: number, den: number, reason: UndefinedReason): Stat {
  return den === 0 ? undefinedStat(reason) : defined(num / den);
}

/**
 * A defined two-sided interval. Throws on a non-finite bound.
 * Formula: { lower, upper }, both finite.
 * @see STATS.md §0 item 3 (undefined values are `null` with a reason, never NaN, 0 or 1).
 */
export function interval(lower: number, upper: number): Interval {
  if (!Number.isFinite(lower) || !Number.isFinite(upper)) {
    throw new Error(`interval bound is not finite: [${lower}, ${upper}]`);
  }
  return { lower, upper };
}

/**
 * An undefined interval with its reason.
 * Formula: { lower: null, upper: null, reason }.
 * @see STATS.md §0 item 3 (undefined values are `null` with a reason, never NaN, 0 or 1).
 */
export function undefinedInterval(reason: UndefinedReason): Interval {
  return { lower: null, upper: null, reason };
}

/**
 * An agreement count and its rate (`no_comparisons` when total is 0).
 * Formula: rate = agree / total.
 * @see Zheng et al. (2023) MT-Bench agreement counts; STATS.md §5.2.
 */
export function agreementCount(agree: number, total: number): AgreementCount {
  return { agree, total, rate: ratio(agree, total, 'no_comparisons') };
}

/**
 * True when a label code marks a missing label.
 * Formula: missing(c) = c is null or c < 0.
 * @see STATS.md §1 (`null` = missing).
 */
export function isMissing(code: number | null | undefined): boolean {
  return code === null || code === undefined || code < 0;
}

/** A number or a `Stat`, for functions that aggregate statistics. */
export type StatLike = number | null | Stat;

/**
 * Normalises a number / null / Stat to a Stat (`null` becomes `no_defined_values`).
 * Formula: x ↦ { value: x } | x.
 * @see STATS.md §0 item 3 (undefined values are `null` with a reason, never NaN, 0 or 1).
 */
export function asStat(x: StatLike): Stat {
  if (x === null) return undefinedStat('no_defined_values');
  return typeof x === 'number' ? defined(x) : x;
}

/** Unweighted mean of the defined statistics, with how many were included and left out. */
export type MacroMean = Stat & { readonly included: number; readonly excluded: number };

/**
 * Macro average over criteria (or classes): mean of the defined values; undefined ones are left
 * out and counted in `excluded`.
 * Formula: mean = (1/|D|) Σ_{s ∈ D} s, D = defined statistics.
 * @see STATS.md §1 ("report the unweighted mean over criteria (macro)").
 */
export function macroMean(stats: ReadonlyArray<StatLike>): MacroMean {
  let sum = 0;
  let included = 0;
  for (const s of stats) {
    const st = asStat(s);
    if (st.value !== null) {
      sum += st.value;
      included++;
    }
  }
  const excluded = stats.length - included;
  const base = included === 0 ? undefinedStat(stats.length === 0 ? 'no_items' : 'no_defined_values') : defined(sum / included);
  return { ...base, included, excluded };
}
