import type { TiePolicyName } from '@/lib/query/analytics';
import type { IntervalDto, Reason } from '@/lib/server/analytics/dto';
import { clipToUnit } from '@/lib/stats/intervals';

/*
 * How the dashboards write numbers: rates as percentages with one decimal, κ and α with three decimals, p-values
 * with three decimals down to "< 0.001", 95 % intervals as "[lo, hi]", and a missing value as "n/a" with its reason
 * in words.
 */

/** `rate`: a share in [0, 1] (proportion, win rate, accuracy), shown as %; `coef`: κ, α, τ, a slope; `p`: a p-value. */
export type NumberKind = 'rate' | 'coef' | 'p';

/** Below this a p-value is written "< 0.001": three decimals would print "0.000", which reads as impossible. */
const SMALLEST_P = 0.001;

export function formatValue(v: number, kind: NumberKind): string {
  if (kind === 'rate') return `${(v * 100).toFixed(1)} %`;
  if (kind === 'p' && v < SMALLEST_P) return '< 0.001';
  return v.toFixed(3);
}

/**
 * The interval as shown: a rate's interval cut to [0, 1], since a share cannot lie outside it (a normal interval,
 * e.g. PPI++'s at few labelled items, can reach past; decision 0034). `clipped` says an end was cut.
 */
export function shownInterval(
  i: Pick<IntervalDto, 'lower' | 'upper'>,
  kind: NumberKind,
): { lower: number; upper: number; clipped: boolean } | null {
  if (i.lower === null || i.upper === null) return null;
  return kind === 'rate' ? clipToUnit(i.lower, i.upper) : { lower: i.lower, upper: i.upper, clipped: false };
}

/** Words for a cut interval, beside it or on hover. */
export const CLIPPED_TEXT = 'cut at 0–100 %';
export const CLIPPED_DETAIL =
  'The normal interval reached past 0 % or 100 %; a share cannot, so it is cut there. Cutting keeps every possible true value inside.';

/** "[lo, hi]", followed by the words for a cut end unless the caller says them apart (`sayClipped` false). */
export function formatInterval(i: Pick<IntervalDto, 'lower' | 'upper'>, kind: NumberKind, sayClipped = true): string | null {
  const s = shownInterval(i, kind);
  if (!s) return null;
  const text = `[${formatValue(s.lower, kind)}, ${formatValue(s.upper, kind)}]`;
  return sayClipped && s.clipped ? `${text} (${CLIPPED_TEXT})` : text;
}

/** Short enough for a table cell; the full explanation is in REASON_DETAIL (shown on hover). */
export const REASON_TEXT: Record<Reason, string> = {
  no_items: 'no labels',
  no_variation: 'all labels in one category',
  no_pairable_units: 'no item with two labels',
  empty_class: 'never predicted',
  absent_class: 'label on neither side',
  no_comparisons: 'nothing left to compare',
  too_few_categories: 'fewer than two categories',
  no_defined_values: 'nothing defined to average',
  separation: 'no estimate (separation)',
  all_replicates_undefined: 'undefined in every bootstrap replicate',
  unequal_ratings: 'unequal labels per item',
  no_both_orders: 'no verdicts in both reply orders',
  not_computed: 'not computed yet',
  not_applicable: 'not applicable',
  too_few_items: 'too few items',
  constant_input: 'every model scored the same',
  df_zero: 'too few models for a p-value',
  no_labelled_items: 'no labelled items',
  too_few_labelled_items: 'only one labelled item',
  no_unlabelled_items: 'every item is labelled',
  too_few_unlabelled_items: 'only one unlabelled item',
  constant_predictions: 'the judge always says the same',
  empty_running_intersection: 'bounds crossed (alignment changed)',
  zero_variance_below_margin: 'no variation (below the margin)',
  zero_variance_above_margin: 'no variation (above the margin)',
  zero_variance_at_margin: 'no variation (at the margin)',
  no_annotator_tested: 'no annotator with enough items',
  no_items_in_both_orders: 'never judged in both orders',
  no_decisive_verdicts: 'only ties',
  empty_bin: 'no items',
  no_decisive_items_in_bin: 'only ties',
  no_decisive_items: 'only ties',
  constant_predictor: 'every length (difference) the same',
  all_same_outcome: 'one outcome only',
  not_converged: 'did not converge',
  not_a_mean: 'not a mean (ties excluded)',
  no_display_order: 'no display order stored',
  mixed_label_sets: 'dimensions have different labels',
  no_mass_for_class: 'no item of this class',
  no_labels: 'no labels',
  no_gold_items: 'no gold items',
  no_items_with_majority: 'no item with a majority',
  no_adjudicated_items: 'no adjudicated items',
  no_distribution: 'no distribution over the labels',
  no_calibration_items: 'no item with ground truth',
  not_tested: 'not tested (an earlier test failed)',
  nothing_accepted: 'nothing accepted',
  excluded: 'excluded',
  no_active_time: 'no active time recorded',
  no_gold_answers: 'no gold answers',
};

export const REASON_DETAIL: Partial<Record<Reason, string>> = {
  no_items: 'There is nothing to compute on: no labels here.',
  no_variation: 'Every label falls in one category, so chance agreement is total and κ/α are 0/0.',
  no_pairable_units: 'No item has two or more labels, so nothing can be compared.',
  empty_class: 'The judge never predicted this label.',
  no_comparisons: 'Every comparison was dropped, e.g. every pair has a tie when ties are left out.',
  no_defined_values: 'Every value this mean averages is itself undefined.',
  all_replicates_undefined: 'The statistic was undefined in every bootstrap replicate.',
  unequal_ratings: 'Fleiss’ κ needs the same number of labels on every item; here items have different numbers.',
  no_both_orders: 'Position consistency needs verdicts given with the replies in both orders for the same item and criterion.',
  not_computed: 'The bootstrap has not been run for this report.',
  not_applicable: 'The value has no meaning here (e.g. the ground truth’s alignment with itself).',
  constant_input: 'One grader gives every model the same score, so there is no ranking to compare.',
  empty_running_intersection:
    'The confidence bounds crossed: the judge’s alignment is not constant over time (the judge, the prompts or the item mix changed).',
  separation: 'The longer (or shorter) reply always wins, so the logistic slope has no finite estimate.',
  not_a_mean:
    'With ties excluded a win rate is wins / (wins + losses), a ratio rather than a mean per item; switch to ties ½ or strict wins.',
  no_display_order: 'Imported labels carry no display order; only labels given on Concord’s review screen do.',
  mixed_label_sets: 'The pooled dimensions have different label sets, so only the share of matching labels is defined.',
  no_annotator_tested: 'No reviewer labelled the 30 items with three or more reviewers that the test needs.',
  excluded: 'The annotator is excluded from the study: their labels take no part in the ground truth or the models.',
  no_active_time: 'Imported labels carry no active time; only labels given on Concord’s review screen do.',
  no_gold_answers: 'This annotator answered none of the study’s gold items (a lead marks gold items and sets a gold rate on the study page).',
  no_items_with_majority: 'On every item the other annotators were tied or absent, so there is no majority to agree with.',
};

export const reasonText = (r: string | undefined) => (r ? (REASON_TEXT[r as Reason] ?? r.replaceAll('_', ' ')) : 'undefined');
export const reasonDetail = (r: string | undefined) => (r ? REASON_DETAIL[r as Reason] : undefined);

/** Labels are stored from reply a's side. */
export const LABEL_TEXT: Record<string, string> = {
  win: 'win (reply a better)',
  tie: 'tie',
  lose: 'lose (reply b better)',
};

export const count = (n: number) => n.toLocaleString('en-US');

/** The leaderboard's tie policies, as the switch and the table label name them. */
export const TIE_POLICIES: { value: TiePolicyName; short: string; label: string }[] = [
  { value: 'half', short: 'ties count ½', label: 'Ties count ½ (default)' },
  { value: 'non_win', short: 'strict wins (a tie is not a win)', label: 'Strict wins' },
  { value: 'exclude', short: 'ties excluded (left out of the denominator)', label: 'Ties excluded' },
];

export const policyText = (p: string) => TIE_POLICIES.find((t) => t.value === p)?.short ?? p;
