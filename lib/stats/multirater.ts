/**
 * Agreement among any number of raters, with missing ratings, from item × category counts
 * (`counts[i*q + k]` = raters who put item i in category k; SQL: `GROUP BY item, label`).
 *
 * Items with fewer than two ratings cannot be paired and are left out of observed agreement;
 * items with at least one rating still count towards category prevalence (Gwet 2014). On
 * complete data these reduce to the classical formulas (Fleiss 1971).
 */
import { agreementWeights } from './agreement';
import { asItemCounts, itemCountsFromRatings } from './encode';
import {
  type Agreement,
  type ItemCountsInput,
  type RatingMatrix,
  type Stat,
  type Weighting,
  defined,
  definedAgreement,
  undefinedAgreement,
  undefinedStat,
} from './types';

interface Pooled {
  /** Items with r_i ≥ 2. */
  readonly pairable: number;
  /** Σ over pairable items of the item's (weighted) agreeing share of ordered pairs. */
  readonly agreeSum: number;
  /** Items with r_i ≥ 1. */
  readonly rated: number;
  /** Σ over rated items of r_ik / r_i. */
  readonly prevalence: Float64Array;
}

function pool(input: ItemCountsInput, w?: number[][]): Pooled & { nItems: number; q: number } {
  const { nItems, q, counts } = asItemCounts(input);
  const prevalence = new Float64Array(q);
  const star = new Float64Array(q);
  let pairable = 0;
  let agreeSum = 0;
  let rated = 0;
  for (let i = 0; i < nItems; i++) {
    const base = i * q;
    let ri = 0;
    for (let k = 0; k < q; k++) ri += counts[base + k];
    if (ri < 1) continue;
    rated++;
    for (let k = 0; k < q; k++) prevalence[k] += counts[base + k] / ri;
    if (ri < 2) continue;
    pairable++;
    let s = 0;
    if (w) {
      for (let k = 0; k < q; k++) {
        let acc = 0;
        for (let l = 0; l < q; l++) acc += w[k][l] * counts[base + l];
        star[k] = acc;
      }
      for (let k = 0; k < q; k++) s += counts[base + k] * (star[k] - 1);
    } else {
      for (let k = 0; k < q; k++) {
        const r = counts[base + k];
        s += r * (r - 1);
      }
    }
    agreeSum += s / (ri * (ri - 1));
  }
  for (let k = 0; k < q; k++) prevalence[k] = rated === 0 ? 0 : prevalence[k] / rated;
  return { nItems, q, pairable, agreeSum, rated, prevalence };
}

function noPairs(p: { nItems: number; pairable: number; rated: number }): Agreement | null {
  if (p.nItems === 0 || p.rated === 0) return undefinedAgreement('no_items', null, null);
  if (p.pairable === 0) return undefinedAgreement('no_pairable_units', null, null);
  return null;
}

/**
 * Percent agreement among many raters, pairwise (Fleiss' P̄), over items with ≥ 2 ratings.
 * Formula: p_a = (1/n″) Σ_{i: r_i≥2} Σ_k r_ik(r_ik − 1)/(r_i(r_i − 1)).
 * @see Fleiss (1971); irrCAC `pa.coeff.raw`; NLTK `avg_Ao`; STATS.md §2.1.
 */
export function percentAgreementPairwise(counts: ItemCountsInput): Stat {
  const p = pool(counts);
  const none = noPairs(p);
  return none ? undefinedStat(none.reason ?? 'no_items') : defined(p.agreeSum / p.pairable);
}

/**
 * Share of items on which all raters agree, over items with at least `minRatings` ratings
 * (default 2; pass the number of raters to drop incomplete items as R `irr::agree` does).
 * Formula: p_u = #{i : max_k r_ik = r_i} / #{i : r_i ≥ minRatings}.
 * @see R irr `agree` (Gamer et al.); STATS.md §2.1.
 */
export function percentAgreementUnanimous(counts: ItemCountsInput, opts: { minRatings?: number } = {}): Stat {
  const { nItems, q, counts: c } = asItemCounts(counts);
  const minRatings = Math.max(2, opts.minRatings ?? 2);
  let used = 0;
  let unanimous = 0;
  for (let i = 0; i < nItems; i++) {
    let ri = 0;
    let max = 0;
    for (let k = 0; k < q; k++) {
      const x = c[i * q + k];
      ri += x;
      if (x > max) max = x;
    }
    if (ri < minRatings) continue;
    used++;
    if (max === ri) unanimous++;
  }
  if (nItems === 0) return undefinedStat('no_items');
  return used === 0 ? undefinedStat('no_pairable_units') : defined(unanimous / used);
}

/**
 * Fleiss' kappa, with Gwet's generalisation to missing ratings (identical to Fleiss 1971 when every
 * item has the same number of raters).
 * Formula: κ = (p_a − p_e)/(1 − p_e), p_e = Σ_k π_k², π_k = (1/n′) Σ_{i: r_i≥1} r_ik / r_i.
 * @see Fleiss (1971) Psychol Bull 76(5); Gwet (2014) ch. 4; irrCAC `fleiss.kappa.raw`; STATS.md §2.4.
 */
export function fleissKappa(counts: ItemCountsInput): Agreement {
  const p = pool(counts);
  const none = noPairs(p);
  if (none) return none;
  const po = p.agreeSum / p.pairable;
  let pe = 0;
  let used = 0;
  for (let k = 0; k < p.q; k++) {
    pe += p.prevalence[k] * p.prevalence[k];
    if (p.prevalence[k] > 0) used++;
  }
  if (used <= 1) return undefinedAgreement('no_variation', po, 1);
  return definedAgreement((po - pe) / (1 - pe), po, pe);
}

/**
 * Fleiss' kappa of each category (category k against all others). On complete data this is
 * irr's `kappam.fleiss(detail=TRUE)`; with missing ratings it uses the generalised p_a and π_k.
 * Formula: κ_k = (p_a,k − p_e,k)/(1 − p_e,k), p_e,k = π_k² + (1 − π_k)²
 * (complete data: κ_k = 1 − Σ_i r_ik(m − r_ik) / (n m (m−1) p_k (1 − p_k))).
 * @see Fleiss (1971); R irr `kappam.fleiss(detail=TRUE)`.
 */
export function fleissKappaPerCategory(counts: ItemCountsInput): Stat[] {
  const { nItems, q, counts: c } = asItemCounts(counts);
  const p = pool({ nItems, q, counts: c });
  const none = noPairs(p);
  if (none) return Array.from({ length: q }, () => undefinedStat(none.reason ?? 'no_items'));
  const out: Stat[] = [];
  for (let k = 0; k < q; k++) {
    let agree = 0;
    for (let i = 0; i < nItems; i++) {
      let ri = 0;
      for (let l = 0; l < q; l++) ri += c[i * q + l];
      if (ri < 2) continue;
      const x = c[i * q + k];
      const y = ri - x;
      agree += (x * (x - 1) + y * (y - 1)) / (ri * (ri - 1));
    }
    const pa = agree / p.pairable;
    const pik = p.prevalence[k];
    if (pik <= 0 || pik >= 1) {
      out.push(undefinedStat('no_variation'));
      continue;
    }
    const pe = pik * pik + (1 - pik) * (1 - pik);
    out.push(defined((pa - pe) / (1 - pe)));
  }
  return out;
}

/**
 * Randolph's free-marginal multirater kappa, q = the declared number of categories.
 * Formula: κ_free = (p_a − 1/q)/(1 − 1/q).
 * @see Randolph (2005) "Free-marginal multirater kappa"; statsmodels `fleiss_kappa(method='randolph')`.
 */
export function randolphKappa(counts: ItemCountsInput): Agreement {
  const p = pool(counts);
  if (p.q < 2) return undefinedAgreement('too_few_categories', null, null);
  const none = noPairs(p);
  if (none) return none;
  const po = p.agreeSum / p.pairable;
  const pe = 1 / p.q;
  return definedAgreement((po - pe) / (1 - pe), po, pe);
}

/**
 * Gwet's AC1 (unweighted) or AC2 (weighted) for any number of raters with missing ratings,
 * q = the declared number of categories. Defined (= 1) when every rating is the same category.
 * Formula: AC = (p_a − p_e)/(1 − p_e), p_a = (1/n″) Σ_i Σ_k r_ik(r*_ik − 1)/(r_i(r_i−1)),
 * r*_ik = Σ_l w_kl r_il, p_e = (Σ_kl w_kl/(q(q−1))) Σ_k π_k(1 − π_k).
 * @see Gwet (2008) Br J Math Stat Psychol 61; irrCAC `gwet.ac1.raw`; STATS.md §2.6.
 */
export function gwetAc1(counts: ItemCountsInput, opts: { weights?: Weighting } = {}): Agreement {
  const items = asItemCounts(counts);
  const q = items.q;
  if (q < 2) return undefinedAgreement('too_few_categories', null, null);
  const weighting = opts.weights ?? 'unweighted';
  const w = agreementWeights(q, weighting);
  const p = pool(items, weighting === 'unweighted' ? undefined : w);
  const none = noPairs(p);
  if (none) return none;
  let wSum = 0;
  for (const row of w) for (const x of row) wSum += x;
  let spread = 0;
  for (let k = 0; k < q; k++) spread += p.prevalence[k] * (1 - p.prevalence[k]);
  const po = p.agreeSum / p.pairable;
  const pe = (wSum / (q * (q - 1))) * spread;
  if (1 - pe <= 0) return undefinedAgreement('no_variation', po, pe);
  return definedAgreement((po - pe) / (1 - pe), po, pe);
}

/**
 * Conger's kappa (Cohen's κ generalised to many raters) with Gwet's treatment of missing ratings:
 * each rater's marginals come from all items that rater rated. With two raters this is Cohen's κ
 * without listwise deletion. Raters who rated nothing are ignored.
 * Formula: κ = (p_a − p_e)/(1 − p_e), p_e = Σ_kl w_kl (p̄_k p̄_l − s²_kl / r),
 * p_gk = n_gk/n_g, p̄_k = mean_g p_gk, s²_kl = (Σ_g p_gk p_gl − r p̄_k p̄_l)/(r − 1).
 * @see Conger (1980) Psychol Bull 88(2); Gwet (2014) ch. 4; irrCAC `conger.kappa.raw`.
 */
export function congerKappa(ratings: RatingMatrix, q: number, opts: { weights?: Weighting } = {}): Agreement {
  const weighting = opts.weights ?? 'unweighted';
  const w = agreementWeights(q, weighting);
  const p = pool(itemCountsFromRatings(ratings, q), weighting === 'unweighted' ? undefined : w);
  const none = noPairs(p);
  if (none) return none;
  const { nItems, nRaters, codes } = ratings;
  const byRater = new Float64Array(nRaters * q);
  const perRater = new Float64Array(nRaters);
  for (let i = 0; i < nItems; i++) {
    for (let g = 0; g < nRaters; g++) {
      const c = codes[i * nRaters + g];
      if (c === null || c < 0) continue;
      byRater[g * q + c]++;
      perRater[g]++;
    }
  }
  const active: number[] = [];
  for (let g = 0; g < nRaters; g++) if (perRater[g] > 0) active.push(g);
  const r = active.length;
  const po = p.agreeSum / p.pairable;
  const mean = new Float64Array(q);
  for (const g of active) for (let k = 0; k < q; k++) mean[k] += byRater[g * q + k] / perRater[g] / r;
  let used = 0;
  for (let k = 0; k < q; k++) if (mean[k] > 0) used++;
  if (used <= 1) return undefinedAgreement('no_variation', po, 1);
  let pe = 0;
  for (let k = 0; k < q; k++) {
    for (let l = 0; l < q; l++) {
      let cross = 0;
      for (const g of active) cross += (byRater[g * q + k] / perRater[g]) * (byRater[g * q + l] / perRater[g]);
      const s2 = (cross - r * mean[k] * mean[l]) / (r - 1);
      pe += w[k][l] * (mean[k] * mean[l] - s2 / r);
    }
  }
  if (1 - pe <= 1e-15) return undefinedAgreement('no_variation', po, pe);
  return definedAgreement((po - pe) / (1 - pe), po, pe);
}
