/**
 * Krippendorff's alpha for any number of raters, missing data and the nominal, ordinal,
 * interval and ratio metrics, computed through the coincidence matrix.
 *
 * Categories are the declared label set in its declared order: the ordinal metric ranks them in
 * that order, and the interval/ratio metrics use `values` (one number per category; default the
 * codes 0..q−1, so pass the real values for a ratio scale).
 */
import { asItemCounts, tableSize } from './encode';
import { type CountTable, type ItemCountsInput, type Stat, defined, undefinedStat } from './types';

export type AlphaMetric = 'nominal' | 'ordinal' | 'interval' | 'ratio';

export interface AlphaOptions {
  readonly metric?: AlphaMetric;
  /** Numeric value of each declared category (interval and ratio metrics). */
  readonly values?: ArrayLike<number>;
}

/** Alpha with the number of pairable values n it rests on. */
export type AlphaResult = Stat & { readonly pairableValues: number };

/**
 * Coincidence matrix from item × category counts; items with fewer than two ratings are dropped.
 * Formula: o_ck = Σ_{i: m_i≥2} r_ic (r_ik − [c = k]) / (m_i − 1).
 * @see Krippendorff (2011) "Computing Krippendorff's Alpha-Reliability", section C.
 */
export function coincidenceMatrix(counts: ItemCountsInput): number[][] {
  const { nItems, q, counts: c } = asItemCounts(counts);
  const o = new Float64Array(q * q);
  for (let i = 0; i < nItems; i++) {
    const base = i * q;
    let mi = 0;
    for (let k = 0; k < q; k++) mi += c[base + k];
    if (mi < 2) continue;
    const inv = 1 / (mi - 1);
    for (let a = 0; a < q; a++) {
      const ra = c[base + a];
      if (ra === 0) continue;
      for (let b = 0; b < q; b++) {
        const rb = c[base + b] - (a === b ? 1 : 0);
        if (rb > 0) o[a * q + b] += ra * rb * inv;
      }
    }
  }
  return toRows(o, q);
}

/**
 * Coincidence matrix of two raters from their contingency table (every item has m_i = 2).
 * Formula: o_ck = n_ck + n_kc.
 * @see Krippendorff (2011) section A.
 */
export function coincidenceFromTable(table: CountTable): number[][] {
  const q = tableSize(table);
  const o: number[][] = [];
  for (let a = 0; a < q; a++) {
    const row: number[] = [];
    for (let b = 0; b < q; b++) row.push(table[a][b] + table[b][a]);
    o.push(row);
  }
  return o;
}

function toRows(flat: Float64Array, q: number): number[][] {
  const rows: number[][] = [];
  for (let k = 0; k < q; k++) rows.push(Array.from(flat.subarray(k * q, k * q + q)));
  return rows;
}

/**
 * Squared distance δ²_ck of a metric, given the coincidence marginals n_g (for ordinal).
 * Formula: nominal [c≠k]; ordinal (Σ_{g=c..k} n_g − (n_c + n_k)/2)²; interval (v_c − v_k)²;
 * ratio ((v_c − v_k)/(v_c + v_k))².
 * @see Krippendorff (2011) section E; STATS.md §2.5.
 */
export function alphaDistances(metric: AlphaMetric, marginals: ArrayLike<number>, values?: ArrayLike<number>): number[][] {
  const q = marginals.length;
  if (values && values.length !== q) throw new Error(`need one value per declared category (${q}), got ${values.length}`);
  const v = (k: number) => (values ? values[k] : k);
  const cum = new Float64Array(q + 1);
  for (let k = 0; k < q; k++) cum[k + 1] = cum[k] + marginals[k];
  const d: number[][] = [];
  for (let c = 0; c < q; c++) {
    const row: number[] = [];
    for (let k = 0; k < q; k++) {
      if (c === k) {
        row.push(0);
        continue;
      }
      switch (metric) {
        case 'nominal':
          row.push(1);
          break;
        case 'ordinal': {
          const lo = Math.min(c, k);
          const hi = Math.max(c, k);
          const x = cum[hi + 1] - cum[lo] - (marginals[c] + marginals[k]) / 2;
          row.push(x * x);
          break;
        }
        case 'interval': {
          const x = v(c) - v(k);
          row.push(x * x);
          break;
        }
        case 'ratio': {
          const s = v(c) + v(k);
          const x = s === 0 ? 0 : (v(c) - v(k)) / s;
          row.push(x * x);
          break;
        }
        default:
          throw new Error(`unknown alpha metric: ${String(metric satisfies never)}`);
      }
    }
    d.push(row);
  }
  return d;
}

/**
 * Krippendorff's alpha from a coincidence matrix.
 * Formula: α = 1 − (n − 1) Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck, n_c = Σ_k o_ck, n = Σ_c n_c.
 * @see Krippendorff (2011); Python `krippendorff` (Castro); STATS.md §2.5.
 */
export function alphaFromCoincidences(o: CountTable, opts: AlphaOptions = {}): AlphaResult {
  const q = tableSize(o);
  const marg = new Float64Array(q);
  let n = 0;
  for (let c = 0; c < q; c++) {
    for (let k = 0; k < q; k++) marg[c] += o[c][k];
    n += marg[c];
  }
  if (n === 0) return { ...undefinedStat('no_pairable_units'), pairableValues: 0 };
  let used = 0;
  for (let c = 0; c < q; c++) if (marg[c] > 0) used++;
  if (used <= 1) return { ...undefinedStat('no_variation'), pairableValues: n };
  const delta = alphaDistances(opts.metric ?? 'nominal', marg, opts.values);
  let dObs = 0;
  let dExp = 0;
  for (let c = 0; c < q; c++) {
    for (let k = 0; k < q; k++) {
      dObs += o[c][k] * delta[c][k];
      dExp += marg[c] * marg[k] * delta[c][k];
    }
  }
  if (dExp === 0) return { ...undefinedStat('no_variation'), pairableValues: n };
  return { ...defined(1 - ((n - 1) * dObs) / dExp), pairableValues: n };
}

/**
 * Krippendorff's alpha from item × category counts (any number of raters, missing allowed).
 * Formula: α = 1 − D_o/D_e over the coincidences of items with ≥ 2 ratings.
 * @see Krippendorff (2011); Hayes & Krippendorff (2007) Communication Methods and Measures 1(1).
 */
export function krippendorffAlpha(counts: ItemCountsInput, opts: AlphaOptions = {}): AlphaResult {
  const items = asItemCounts(counts);
  if (items.nItems === 0) return { ...undefinedStat('no_items'), pairableValues: 0 };
  return alphaFromCoincidences(coincidenceMatrix(items), opts);
}

/**
 * Krippendorff's alpha of two raters from their contingency table (no missing data in the table).
 * Formula: α = 1 − (n − 1) Σ o δ² / Σ n_c n_k δ², o = table + tableᵀ.
 * @see Krippendorff (2011); nominal two-rater case α = π + (1 − π)/(2N) (Artstein & Poesio 2008).
 */
export function krippendorffAlphaFromTable(table: CountTable, opts: AlphaOptions = {}): AlphaResult {
  return alphaFromCoincidences(coincidenceFromTable(table), opts);
}
