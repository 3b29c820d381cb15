import type { TiePolicyName } from '@/lib/query/analytics';
import type { IntervalDto, Reason } from '@/lib/server/analytics/data';

/*
 * How the dashboards write numbers: rates as percentages with one decimal, κ and α with three decimals, 95 %
 * intervals as "[lo, hi]", and a missing value as "n/a" with its reason in words.
 */

export type NumberKind = 'rate' | 'coef';

export function formatValue(v: number, kind: NumberKind): string {
  return kind === 'rate' ? `${(v * 100).toFixed(1)} %` : v.toFixed(3);
}

export function formatInterval(i: Pick<IntervalDto, 'lower' | 'upper'>, kind: NumberKind): string | null {
  if (i.lower === null || i.upper === null) return null;
  return `[${formatValue(i.lower, kind)}, ${formatValue(i.upper, kind)}]`;
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
