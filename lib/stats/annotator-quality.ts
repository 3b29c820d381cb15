/**
 * Per-annotator quality (STATS-3 part C): accuracy on gold (control) items, agreement with the
 * plurality of the other annotators (leave one out), and Cohen's κ against the adjudicated label —
 * "which of my annotators can I trust?" with an interval for every rate.
 */
import { cohenKappa } from './agreement';
import { Z_975 } from './certification-types';
import { wilsonInterval } from './intervals';
import { type Maybe, declaredIndex, none, some } from './stats3-types';

export interface AnnotatorQualityInput<L = string, A = string> {
  /** Declared labels: κ's chance agreement uses all of them. */
  readonly labels: readonly L[];
  /** Declared annotators: one result each, in this order, even for one who rated nothing. */
  readonly annotators: readonly A[];
  /** ratings[i][j]: annotator j's label on item i, or null. */
  readonly ratings: ReadonlyArray<ReadonlyArray<L | null>>;
  /** The known answer of a gold (control) item, else null. */
  readonly gold: ReadonlyArray<L | null>;
  /** The final label after adjudication, else null. */
  readonly adjudicated: ReadonlyArray<L | null>;
}

export interface AnnotatorQuality {
  readonly goldN: number;
  readonly goldCorrect: number;
  readonly goldAccuracy: Maybe<number>;
  readonly goldWilson95: Maybe<[number, number]>;
  /** Items with a unique plurality among the others. */
  readonly looN: number;
  readonly looAgree: number;
  readonly looRate: Maybe<number>;
  readonly looWilson95: Maybe<[number, number]>;
  /** Items skipped because the others' plurality was tied: neither agreement nor disagreement. */
  readonly looTied: number;
  /** Items skipped because nobody else rated them. */
  readonly looNoOthers: number;
  readonly kappaN: number;
  /**
   * Unweighted κ over the declared labels. Optimistic for the first two annotators: their own labels made
   * the adjudicated label whenever they agreed (STATS-3 §4.2 item 3); say so where it is shown.
   */
  readonly kappaVsAdjudicated: Maybe<number>;
}

/**
 * A rate with its Wilson interval, exactly 0 below at no success and exactly 1 above at all successes
 * (STATS-2 6.3), or null with `reason` when n = 0.
 */
function rateWithWilson(k: number, n: number, z: number, reason: 'no_gold_items' | 'no_items_with_majority') {
  if (n === 0) return { rate: none(reason), wilson: none(reason) };
  const w = wilsonInterval(k, n, { z });
  const lower = k === 0 ? 0 : (w.lower as number);
  const upper = k === n ? 1 : (w.upper as number);
  return { rate: some(k / n), wilson: some<[number, number]>([lower, upper]) };
}

/**
 * Quality of each declared annotator (the columns of `ratings`, in order).
 * Formula: gold accuracy = correct/n on rated gold items; LOO rate = agree/n over rated items whose
 * other labels have a unique plurality (tied pluralities and items nobody else rated are skipped and
 * counted); κ = (p_o − p_e)/(1 − p_e) against the adjudicated label on items with both.
 * @see Wilson (1927) JASA 22; Cohen (1960); STATS-3 §4.
 */
export function annotatorQuality<L, A>(input: AnnotatorQualityInput<L, A>, opts: { z?: number } = {}): AnnotatorQuality[] {
  const { labels, ratings, gold, adjudicated } = input;
  const z = opts.z ?? Z_975;
  const K = labels.length;
  if (gold.length !== ratings.length || adjudicated.length !== ratings.length)
    throw new RangeError('ratings, gold and adjudicated have different lengths');
  const J = input.annotators.length;
  const code = (l: L | null, where: string) => (l === null ? -1 : declaredIndex(labels, l, where));
  const r = ratings.map((row, i) => {
    if (row.length !== J) throw new RangeError(`item ${i}: ${row.length} ratings for ${J} annotators`);
    return row.map((l, j) => code(l, `item ${i}, annotator ${j}`));
  });
  const g = gold.map((l, i) => code(l, `gold of item ${i}`));
  const adj = adjudicated.map((l, i) => code(l, `adjudicated label of item ${i}`));

  return Array.from({ length: J }, (_, j) => {
    let goldN = 0;
    let goldCorrect = 0;
    let looN = 0;
    let looAgree = 0;
    let looTied = 0;
    let looNoOthers = 0;
    const table = Array.from({ length: K }, () => new Array<number>(K).fill(0));
    let kappaN = 0;
    r.forEach((row, i) => {
      const own = row[j];
      if (own < 0) return;
      if (g[i] >= 0) {
        goldN++;
        if (own === g[i]) goldCorrect++;
      }
      const counts = new Array<number>(K).fill(0);
      let others = 0;
      row.forEach((l, jj) => {
        if (jj !== j && l >= 0) {
          counts[l]++;
          others++;
        }
      });
      if (others === 0) looNoOthers++;
      else {
        const max = Math.max(...counts);
        // Counts are compared exactly: a tied plurality is skipped, not broken (STATS-3 §0 item 4).
        if (counts.filter((c) => c === max).length > 1) looTied++;
        else {
          looN++;
          if (counts[own] === max) looAgree++;
        }
      }
      if (adj[i] >= 0) {
        table[own][adj[i]]++;
        kappaN++;
      }
    });
    const goldRate = rateWithWilson(goldCorrect, goldN, z, 'no_gold_items');
    const looRate = rateWithWilson(looAgree, looN, z, 'no_items_with_majority');
    let kappa: Maybe<number> = none('no_adjudicated_items');
    if (kappaN > 0) {
      const k = cohenKappa(table);
      kappa = k.value === null ? none(k.reason === 'no_variation' ? 'no_variation' : 'no_adjudicated_items') : some(k.value);
    }
    return {
      goldN,
      goldCorrect,
      goldAccuracy: goldRate.rate,
      goldWilson95: goldRate.wilson,
      looN,
      looAgree,
      looRate: looRate.rate,
      looWilson95: looRate.wilson,
      looTied,
      looNoOthers,
      kappaN,
      kappaVsAdjudicated: kappa,
    };
  });
}
