/**
 * Two-rater agreement from a square contingency table (rows = rater 1, columns = rater 2, both
 * in the declared category order): percent agreement, Cohen's κ (unweighted, linear, quadratic)
 * with its large-sample standard error, Scott's π, Bennett's S and Gwet's AC1/AC2.
 *
 * Build the table with `contingencyTable` (codes) or `tableFromLabels` (labels), or let SQL
 * return `GROUP BY label1, label2` counts directly. Items missing either label are not in the
 * table (listwise deletion); `congerKappa` in multirater.ts keeps them.
 */
import { tableSize } from './encode';
import { normalQuantile } from './intervals';
import {
  type Agreement,
  type CountTable,
  type Interval,
  type Stat,
  type Weighting,
  defined,
  definedAgreement,
  interval,
  undefinedInterval,
  undefinedAgreement,
  undefinedStat,
} from './types';

/**
 * Disagreement weights v_kl on category indices in the declared order: [k≠l], |k−l| or (k−l)².
 * Formula: v_kl = [k≠l] | |k−l| | (k−l)².
 * @see Cohen (1968) weighted kappa; STATS.md §2.2.
 */
export function disagreementWeights(q: number, weights: Weighting = 'unweighted'): number[][] {
  const v: number[][] = [];
  for (let k = 0; k < q; k++) {
    const row: number[] = [];
    for (let l = 0; l < q; l++) {
      const d = Math.abs(k - l);
      row.push(weights === 'unweighted' ? (d === 0 ? 0 : 1) : weights === 'linear' ? d : d * d);
    }
    v.push(row);
  }
  return v;
}

/**
 * Agreement weights w_kl = 1 − v_kl / max v (1 on the diagonal; all 1 when q = 1).
 * Formula: w_kl = 1 − |k−l|/(q−1) (linear), 1 − (k−l)²/(q−1)² (quadratic), [k=l] (unweighted).
 * @see Gwet (2014) Handbook of Inter-Rater Reliability, ch. 3 (irrCAC linear/quadratic weights).
 */
export function agreementWeights(q: number, weights: Weighting = 'unweighted'): number[][] {
  const v = disagreementWeights(q, weights);
  const vmax = maxWeight(q, weights);
  return v.map((row) => row.map((x) => (vmax === 0 ? 1 : 1 - x / vmax)));
}

function maxWeight(q: number, weights: Weighting): number {
  if (q < 2) return 0;
  return weights === 'unweighted' ? 1 : weights === 'linear' ? q - 1 : (q - 1) * (q - 1);
}

interface Margins {
  readonly q: number;
  readonly n: number;
  readonly rows: number[];
  readonly cols: number[];
  readonly diag: number;
}

function margins(table: CountTable): Margins {
  const q = tableSize(table);
  const rows = new Array<number>(q).fill(0);
  const cols = new Array<number>(q).fill(0);
  let n = 0;
  let diag = 0;
  for (let k = 0; k < q; k++) {
    const row = table[k];
    let rk = 0;
    for (let l = 0; l < q; l++) {
      const x = row[l];
      if (!(x >= 0)) throw new RangeError('counts must be non-negative numbers');
      rk += x;
      cols[l] += x;
    }
    rows[k] = rk;
    n += rk;
    diag += row[k];
  }
  return { q, n, rows, cols, diag };
}

/**
 * Percent agreement of two raters.
 * Formula: p_o = Σ_k n_kk / n.
 * @see Artstein & Poesio (2008) A_o; NLTK `AnnotationTask.avg_Ao`.
 */
export function percentAgreement(table: CountTable): Stat {
  const m = margins(table);
  return m.n === 0 ? undefinedStat('no_items') : defined(m.diag / m.n);
}

/**
 * Cohen's kappa, unweighted or weighted by the declared category order.
 * Formula: κ_w = 1 − n·Σ v_kl n_kl / Σ v_kl r_k c_l  (= (p_o − p_e)/(1 − p_e) unweighted).
 * @see Cohen (1960, 1968); scikit-learn `cohen_kappa_score`; STATS.md §2.2.
 */
export function cohenKappa(table: CountTable, opts: { weights?: Weighting } = {}): Agreement {
  const weights = opts.weights ?? 'unweighted';
  const { q, n, rows, cols } = margins(table);
  if (n === 0) return undefinedAgreement('no_items', null, null);
  const power = weights === 'unweighted' ? 0 : weights === 'linear' ? 1 : 2;
  const vmax = maxWeight(q, weights);
  let dObs = 0;
  let dExp = 0;
  for (let k = 0; k < q; k++) {
    const row = table[k];
    const rk = rows[k];
    for (let l = 0; l < q; l++) {
      if (k === l) continue;
      const d = k > l ? k - l : l - k;
      const v = power === 0 ? 1 : power === 1 ? d : d * d;
      dObs += v * row[l];
      dExp += v * rk * cols[l];
    }
  }
  if (dExp === 0) return undefinedAgreement('no_variation', vmax === 0 ? 1 : 1 - dObs / (vmax * n), 1);
  const po = 1 - dObs / (vmax * n);
  const pe = 1 - dExp / (vmax * n * n);
  return definedAgreement(1 - (n * dObs) / dExp, po, pe);
}

/** Cohen's κ with its large-sample standard error and Wald interval. */
export interface KappaWithSe {
  readonly kappa: Agreement;
  readonly ase: Stat;
  readonly ci: Interval;
}

/**
 * Cohen's κ with the large-sample (non-null) asymptotic standard error and a Wald interval.
 * Formula: Var(κ_w) = [Σ_kl p_kl (w_kl − (w̄_k· + w̄_·l)(1 − κ))² − (κ − p_e(1 − κ))²] / (n(1 − p_e)²),
 * w̄_k· = Σ_l p_+l w_kl, w̄_·l = Σ_k p_k+ w_kl; CI = κ ± z·ASE.
 * @see Fleiss, Cohen & Everitt (1969) Psychological Bulletin 72(5); SAS PROC FREQ ASE; statsmodels `cohens_kappa`.
 */
export function cohenKappaWithSe(table: CountTable, opts: { weights?: Weighting; level?: number } = {}): KappaWithSe {
  const kappa = cohenKappa(table, opts);
  if (kappa.value === null || kappa.pe === null) {
    return { kappa, ase: undefinedStat(kappa.reason ?? 'no_items'), ci: undefinedInterval(kappa.reason ?? 'no_items') };
  }
  const { q, n, rows, cols } = margins(table);
  const w = agreementWeights(q, opts.weights ?? 'unweighted');
  const k = kappa.value;
  const pe = kappa.pe;
  const wRow = new Array<number>(q).fill(0);
  const wCol = new Array<number>(q).fill(0);
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      wRow[i] += (cols[j] / n) * w[i][j];
      wCol[j] += (rows[i] / n) * w[i][j];
    }
  }
  let s = 0;
  for (let i = 0; i < q; i++) {
    for (let j = 0; j < q; j++) {
      const d = w[i][j] - (wRow[i] + wCol[j]) * (1 - k);
      s += (table[i][j] / n) * d * d;
    }
  }
  const c = k - pe * (1 - k);
  const variance = Math.max(0, (s - c * c) / (n * (1 - pe) * (1 - pe)));
  const ase = Math.sqrt(variance);
  const z = normalQuantile(1 - (1 - (opts.level ?? 0.95)) / 2);
  return { kappa, ase: defined(ase), ci: interval(k - z * ase, k + z * ase) };
}

/**
 * Scott's pi (two raters, pooled marginals). Equals Fleiss' κ for two raters without missing data.
 * Formula: π = (p_o − Σ_k π_k²)/(1 − Σ_k π_k²), π_k = (p_k+ + p_+k)/2.
 * @see Scott (1955); NLTK `AnnotationTask.pi`; irrCAC `scott2.table`.
 */
export function scottPi(table: CountTable): Agreement {
  const m = margins(table);
  if (m.n === 0) return undefinedAgreement('no_items', null, null);
  const po = m.diag / m.n;
  let pe = 0;
  let used = 0;
  for (let k = 0; k < m.q; k++) {
    const pik = (m.rows[k] + m.cols[k]) / (2 * m.n);
    if (pik > 0) used++;
    pe += pik * pik;
  }
  if (used <= 1) return undefinedAgreement('no_variation', po, 1);
  return definedAgreement((po - pe) / (1 - pe), po, pe);
}

/**
 * Bennett, Alpert & Goldstein's S (Brennan–Prediger), q = the declared number of categories.
 * Formula: S = (p_o − 1/q)/(1 − 1/q).
 * @see Bennett et al. (1954); NLTK `AnnotationTask.S`; irrCAC `bp.coeff.raw`.
 */
export function bennettS(table: CountTable): Agreement {
  const m = margins(table);
  if (m.q < 2) return undefinedAgreement('too_few_categories', null, null);
  if (m.n === 0) return undefinedAgreement('no_items', null, 1 / m.q);
  const po = m.diag / m.n;
  const pe = 1 / m.q;
  return definedAgreement((po - pe) / (1 - pe), po, pe);
}

/**
 * Gwet's AC1 (unweighted) or AC2 (weighted) for two raters, q = the declared number of categories.
 * Formula: AC = (p_a − p_e)/(1 − p_e), p_a = Σ w_kl p_kl, π_k = (p_k+ + p_+k)/2,
 * p_e = (Σ_kl w_kl / (q(q−1))) Σ_k π_k(1 − π_k).
 * @see Gwet (2008) Br J Math Stat Psychol 61; irrCAC `gwet.ac1.table`; STATS.md §2.6.
 */
export function gwetAc1FromTable(table: CountTable, opts: { weights?: Weighting } = {}): Agreement {
  const m = margins(table);
  if (m.q < 2) return undefinedAgreement('too_few_categories', null, null);
  if (m.n === 0) return undefinedAgreement('no_items', null, null);
  const { q, n } = m;
  const w = agreementWeights(q, opts.weights ?? 'unweighted');
  let pa = 0;
  let wSum = 0;
  for (let k = 0; k < q; k++) {
    for (let l = 0; l < q; l++) {
      pa += (w[k][l] * table[k][l]) / n;
      wSum += w[k][l];
    }
  }
  let spread = 0;
  for (let k = 0; k < q; k++) {
    const pik = (m.rows[k] + m.cols[k]) / (2 * n);
    spread += pik * (1 - pik);
  }
  const pe = (wSum / (q * (q - 1))) * spread;
  if (1 - pe <= 0) return undefinedAgreement('no_variation', pa, pe);
  return definedAgreement((pa - pe) / (1 - pe), pa, pe);
}
