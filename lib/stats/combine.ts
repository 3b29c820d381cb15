/**
 * Combining several judge runs (or several samples of one run) into one verdict per
 * (item, dimension), as DESIGN "Combined judges" describes.
 *
 * Rules, over the verdicts given for one (item, dimension), labels ordered worst → best:
 * - `all`: the desired label where every verdict is the desired label, else the worst label
 *   any verdict gave other than the desired one (PedagogicalRL: a conversation passes only if
 *   every judge passes it).
 * - `any`: the desired label where at least one verdict is the desired label, else the best
 *   label any verdict gave. With the desired label at the top of the scale (every shipped
 *   catalog), `all` is the minimum over the verdicts and `any` the maximum: the dual rules.
 * - `majority`: the label given by strictly more verdicts than any other label (a plurality,
 *   so 2 of 4 wins over 1 + 1); a tie for the top count is left unjudged and counted.
 *
 * Pairwise labels (lose < tie < win, from reply a's side) have no desired label: "a wins" is
 * not a success of the item. `all` and `any` are refused for a scale without `desired`;
 * `majority` works for any scale.
 *
 * Missing verdicts (a run that did not judge an item, or whose verdict was unreadable): by
 * default (`missing: 'unjudged'`) a pair is combined only when every run gave a verdict, so
 * `all` can never pass an item that one judge never saw; `missing: 'ignore'` combines the
 * verdicts that exist. Either way, pairs left unjudged are listed with their reason.
 */

export type CombineRule = 'all' | 'any' | 'majority';
export const COMBINE_RULES: readonly CombineRule[] = ['all', 'any', 'majority'];

/** A dimension's ordered label set (worst → best) and, for rubric dimensions, its desired label. */
export interface LabelScale {
  readonly labels: readonly string[];
  readonly desired?: string;
}

export const PAIRWISE_SCALE: LabelScale = { labels: ['lose', 'tie', 'win'] };

export type MissingPolicy = 'unjudged' | 'ignore';

/** One combined verdict, or why there is none. */
export type CombinedLabel =
  { readonly label: string; readonly reason?: undefined } | { readonly label: null; readonly reason: 'tie' | 'missing' | 'no_verdicts' };

function checkRule(rule: CombineRule, scale: LabelScale, where: string): void {
  if (!COMBINE_RULES.includes(rule)) throw new Error(`unknown combination rule "${String(rule)}"; use all, any or majority`);
  if (rule !== 'majority' && scale.desired === undefined) {
    throw new Error(`rule "${rule}" needs a desired label, and ${where} (${scale.labels.join(' < ')}) has none; use "majority"`);
  }
  if (scale.desired !== undefined && !scale.labels.includes(scale.desired)) {
    throw new Error(`desired label "${scale.desired}" is not in the label set of ${where}`);
  }
}

/**
 * Combines the verdicts one (item, dimension) received, one entry per run (`null`/`undefined`
 * where a run gave none). Throws on a label outside the scale.
 * Formula: all = desired if ∀r v_r = desired else min{v_r ≠ desired}; any = desired if ∃r v_r = desired
 * else max_r v_r; majority = argmax_l #{r : v_r = l} if unique, else unjudged.
 * @see DESIGN "Combined judges"; PedagogicalRL (2025), which keeps a dialogue only if every judge accepts it.
 */
export function combineVerdicts(
  verdicts: ReadonlyArray<string | null | undefined>,
  scale: LabelScale,
  rule: CombineRule,
  opts: { missing?: MissingPolicy } = {},
): CombinedLabel {
  checkRule(rule, scale, 'this dimension');
  const missing = opts.missing ?? 'unjudged';
  const codes: number[] = [];
  let absent = 0;
  for (const v of verdicts) {
    if (v === null || v === undefined) {
      absent++;
      continue;
    }
    const k = scale.labels.indexOf(v);
    if (k < 0) throw new Error(`label "${v}" is not one of ${scale.labels.join(', ')}`);
    codes.push(k);
  }
  if (codes.length === 0) return { label: null, reason: 'no_verdicts' };
  if (absent > 0 && missing === 'unjudged') return { label: null, reason: 'missing' };

  if (rule === 'majority') {
    const counts = new Array<number>(scale.labels.length).fill(0);
    for (const k of codes) counts[k]++;
    const top = Math.max(...counts);
    const winners = counts.flatMap((c, k) => (c === top ? [k] : []));
    return winners.length === 1 ? { label: scale.labels[winners[0]] } : { label: null, reason: 'tie' };
  }
  const desired = scale.labels.indexOf(scale.desired as string);
  if (rule === 'all') {
    // The worst of the other labels: with desired at the top this is the worst label given, and
    // it can never be the desired label for a pair some run did not give it.
    const others = codes.filter((k) => k !== desired);
    return others.length === 0 ? { label: scale.labels[desired] } : { label: scale.labels[Math.min(...others)] };
  }
  return codes.some((k) => k === desired) ? { label: scale.labels[desired] } : { label: scale.labels[Math.max(...codes)] };
}

/** One verdict of one run: the label it gave an item on a dimension (criterion). */
export interface Verdict {
  readonly item: string;
  readonly dimension: string;
  readonly label: string;
}

export interface CombinedVerdict extends Verdict {
  /** How many runs gave a verdict for this pair. */
  readonly verdicts: number;
}

export interface UnjudgedPair {
  readonly item: string;
  readonly dimension: string;
  readonly reason: 'tie' | 'missing';
  /** Each run's label for the pair, in run order; `null` where it gave none. */
  readonly labels: ReadonlyArray<string | null>;
}

export interface CombineResult {
  readonly rule: CombineRule;
  readonly runs: number;
  readonly missing: MissingPolicy;
  /** Combined verdicts in order of first appearance across the runs. */
  readonly verdicts: readonly CombinedVerdict[];
  readonly unjudged: readonly UnjudgedPair[];
  readonly counts: { readonly pairs: number; readonly combined: number; readonly tie: number; readonly missing: number };
}

/**
 * Combines whole runs: every (item, dimension) that at least one run judged gets a combined
 * verdict or is listed as unjudged. `scales` is one scale for every dimension (pairwise) or a
 * map from dimension id to its scale. A run with two verdicts for the same pair is an error
 * (pass each sample as a run of its own).
 * Formula: per pair p, combineVerdicts([v_{1,p}, …, v_{R,p}], scale(p), rule).
 * @see DESIGN "Combined judges".
 */
export function combineRuns(
  runs: ReadonlyArray<Iterable<Verdict>>,
  scales: LabelScale | ReadonlyMap<string, LabelScale>,
  rule: CombineRule,
  opts: { missing?: MissingPolicy } = {},
): CombineResult {
  const missing = opts.missing ?? 'unjudged';
  const scaleOf = (dimension: string): LabelScale => {
    const s = scales instanceof Map ? scales.get(dimension) : (scales as LabelScale);
    if (s === undefined) throw new Error(`no label set was given for dimension "${dimension}"`);
    return s;
  };
  if (!(scales instanceof Map)) checkRule(rule, scales as LabelScale, 'these labels');
  else for (const [id, s] of scales) checkRule(rule, s, `dimension "${id}"`);

  // pair key → labels per run; keys kept in first-appearance order.
  const table = new Map<string, { item: string; dimension: string; labels: (string | null)[] }>();
  runs.forEach((run, r) => {
    for (const v of run) {
      const key = JSON.stringify([v.item, v.dimension]);
      let row = table.get(key);
      if (row === undefined) {
        row = { item: v.item, dimension: v.dimension, labels: new Array<string | null>(runs.length).fill(null) };
        table.set(key, row);
      }
      if (row.labels[r] !== null) {
        throw new Error(
          `run ${r + 1} has two verdicts for item "${v.item}", dimension "${v.dimension}"; pass each sample as a run of its own`,
        );
      }
      row.labels[r] = v.label;
    }
  });

  const verdicts: CombinedVerdict[] = [];
  const unjudged: UnjudgedPair[] = [];
  let tie = 0;
  let absent = 0;
  for (const row of table.values()) {
    const c = combineVerdicts(row.labels, scaleOf(row.dimension), rule, { missing });
    if (c.label !== null) {
      verdicts.push({ item: row.item, dimension: row.dimension, label: c.label, verdicts: row.labels.filter((l) => l !== null).length });
    } else {
      // 'no_verdicts' cannot happen: a pair exists only because some run judged it.
      const reason = c.reason === 'tie' ? 'tie' : 'missing';
      if (reason === 'tie') tie++;
      else absent++;
      unjudged.push({ item: row.item, dimension: row.dimension, reason, labels: row.labels });
    }
  }
  return {
    rule,
    runs: runs.length,
    missing,
    verdicts,
    unjudged,
    counts: { pairs: table.size, combined: verdicts.length, tie, missing: absent },
  };
}
