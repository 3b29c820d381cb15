/**
 * How well an LLM judge matches people on pairwise (or any categorical) labels: alignment rate
 * with and without ties, Cohen's κ and the confusion matrix against gold, MT-Bench-style
 * agreement with each annotator next to human–human agreement, and position consistency.
 *
 * The confusion matrix has rows = gold, columns = judge, in the declared label order; SQL can
 * return it directly as `GROUP BY gold_label, judge_label` counts.
 */
import { cohenKappa } from './agreement';
import { tableSize } from './encode';
import { type Agreement, type AgreementCount, type CountTable, type LabelCodes, agreementCount } from './types';
import { TIE } from './winrate';

/**
 * Alignment rate: share of labels where the judge equals gold.
 * Formula: AR = Σ_k C_kk / Σ_kl C_kl.
 * @see KMP-Bench (arXiv 2603.02775) "Alignment Rate"; STATS.md §0 item 4.
 */
export function alignmentRate(confusion: CountTable): AgreementCount {
  const q = tableSize(confusion);
  let agree = 0;
  let total = 0;
  for (let k = 0; k < q; k++) {
    agree += confusion[k][k];
    for (let l = 0; l < q; l++) total += confusion[k][l];
  }
  return agreementCount(agree, total);
}

/**
 * Alignment rate without ties: a pair is dropped when either side is a tie.
 * Formula: AR_¬tie = Σ_{k≠t} C_kk / Σ_{k≠t, l≠t} C_kl.
 * @see Zheng et al. (2023) MT-Bench, FastChat `compute_agreement.py` (ban ties); STATS.md §5.2.
 */
export function alignmentRateWithoutTies(confusion: CountTable, opts: { tieIndex?: number } = {}): AgreementCount {
  const q = tableSize(confusion);
  const t = opts.tieIndex ?? TIE;
  let agree = 0;
  let total = 0;
  for (let k = 0; k < q; k++) {
    if (k === t) continue;
    agree += confusion[k][k];
    for (let l = 0; l < q; l++) if (l !== t) total += confusion[k][l];
  }
  return agreementCount(agree, total);
}

export interface AlignmentSummary {
  readonly rate: AgreementCount;
  readonly withoutTies: AgreementCount;
  readonly kappa: Agreement;
  readonly kappaLinear: Agreement;
  readonly kappaQuadratic: Agreement;
  /** Rows = gold, columns = judge. */
  readonly confusion: number[][];
}

/**
 * Judge-vs-gold summary from one confusion matrix: alignment with and without ties, Cohen's κ
 * (unweighted, linear, quadratic on the declared order), and the matrix itself.
 * Formula: see `alignmentRate`, `alignmentRateWithoutTies`, `cohenKappa`.
 * @see KMP-Bench (arXiv 2603.02775); Zheng et al. (2023); STATS.md §0 item 4.
 */
export function alignmentSummary(confusion: CountTable, opts: { tieIndex?: number } = {}): AlignmentSummary {
  return {
    rate: alignmentRate(confusion),
    withoutTies: alignmentRateWithoutTies(confusion, opts),
    kappa: cohenKappa(confusion),
    kappaLinear: cohenKappa(confusion, { weights: 'linear' }),
    kappaQuadratic: cohenKappa(confusion, { weights: 'quadratic' }),
    confusion: confusion.map((row) => Array.from(row)),
  };
}

/** Agreement counted with ties and without them. */
export interface TieSplit {
  readonly withTies: AgreementCount;
  readonly withoutTies: AgreementCount;
}

export interface MtBenchAgreement {
  /** Each (judge vote, human vote) pair on the same key is one comparison. */
  readonly judgeVsHuman: TieSplit;
  /** Each pair of human votes on the same key is one comparison (the human ceiling). */
  readonly humanVsHuman: TieSplit;
}

class Tally {
  a = 0;
  n = 0;
  aNoTie = 0;
  nNoTie = 0;
  add(x: number, y: number, tie: number): void {
    this.n++;
    if (x === y) this.a++;
    if (x !== tie && y !== tie) {
      this.nNoTie++;
      if (x === y) this.aNoTie++;
    }
  }
  split(): TieSplit {
    return { withTies: agreementCount(this.a, this.n), withoutTies: agreementCount(this.aNoTie, this.nNoTie) };
  }
}

/** One key (question × model pair × turn, or item × criterion) with its judge and human votes as codes. */
export interface VoteGroup {
  readonly judge: LabelCodes;
  readonly humans: LabelCodes;
}

/**
 * MT-Bench agreement over keyed votes: judge vs every human vote, and every pair of human votes
 * on the same key; "without ties" skips a comparison when either vote is a tie. Missing votes
 * are skipped. Tie variants (e.g. "tie (bothbad)") must be coded as the one tie code.
 * Formula: agree/total over comparisons; without ties: over comparisons with neither vote a tie.
 * @see Zheng et al. (2023) arXiv 2306.05685; FastChat `compute_agreement.py` `get_mt_bench_agreement`; STATS.md §5.2.
 */
export function mtBenchAgreement(groups: Iterable<VoteGroup>, opts: { tieCode?: number } = {}): MtBenchAgreement {
  const tie = opts.tieCode ?? TIE;
  const jh = new Tally();
  const hh = new Tally();
  for (const g of groups) {
    for (let a = 0; a < g.humans.length; a++) {
      const h = g.humans[a];
      if (h === null || h < 0) continue;
      for (let j = 0; j < g.judge.length; j++) {
        const v = g.judge[j];
        if (v !== null && v >= 0) jh.add(v, h, tie);
      }
      for (let b = a + 1; b < g.humans.length; b++) {
        const h2 = g.humans[b];
        if (h2 !== null && h2 >= 0) hh.add(h, h2, tie);
      }
    }
  }
  return { judgeVsHuman: jh.split(), humanVsHuman: hh.split() };
}

/**
 * MT-Bench-style agreement for per-item code arrays: the judge against each annotator (every vote
 * counted), and every pair of annotators. `items` optionally lists item indices, with repetition.
 * Formula: as `mtBenchAgreement` with one key per item.
 * @see Zheng et al. (2023); FastChat `compute_agreement.py`; STATS.md §1 ("judge vs humans").
 */
export function judgeVsAnnotators(
  judge: LabelCodes,
  annotators: readonly LabelCodes[],
  opts: { tieCode?: number; items?: ArrayLike<number> } = {},
): MtBenchAgreement {
  const tie = opts.tieCode ?? TIE;
  for (const a of annotators) if (a.length !== judge.length) throw new Error('annotator and judge arrays differ in length');
  const jh = new Tally();
  const hh = new Tally();
  const items = opts.items;
  const n = items ? items.length : judge.length;
  const m = annotators.length;
  for (let t = 0; t < n; t++) {
    const i = items ? items[t] : t;
    const raw = judge[i];
    const v = raw === null || raw < 0 ? -1 : raw;
    for (let a = 0; a < m; a++) {
      const h = annotators[a][i];
      if (h === null || h < 0) continue;
      if (v >= 0) jh.add(v, h, tie);
      for (let b = a + 1; b < m; b++) {
        const h2 = annotators[b][i];
        if (h2 !== null && h2 >= 0) hh.add(h, h2, tie);
      }
    }
  }
  return { judgeVsHuman: jh.split(), humanVsHuman: hh.split() };
}

/**
 * Position consistency of a judge run with verdicts in both orders (both already in the canonical
 * orientation): share of items whose two verdicts agree.
 * Formula: PC = #{g1 = g2} / #{both present}.
 * @see Zheng et al. (2023) MT-Bench §3.3 (position bias); FastChat `show_result.py`.
 */
export function positionConsistency(original: LabelCodes, swapped: LabelCodes): AgreementCount {
  if (original.length !== swapped.length) throw new Error('original and swapped verdicts differ in length');
  let agree = 0;
  let total = 0;
  for (let i = 0; i < original.length; i++) {
    const a = original[i];
    const b = swapped[i];
    if (a === null || b === null || a < 0 || b < 0) continue;
    total++;
    if (a === b) agree++;
  }
  return agreementCount(agree, total);
}
