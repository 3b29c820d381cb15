/**
 * Test support for vectors-2.test.ts: computes, for one reference vector of `vectors-2.json`, an
 * object shaped like its `expected` field using only the public API, plus the reason of every
 * null it produced (keyed by the concrete path, e.g. `per_annotator[2].t`). Unknown metrics throw,
 * so a new kind of vector fails until it is implemented.
 */
import {
  type CertInterval,
  type Reasoned,
  altTest,
  encodeLabels,
  humanPositionBias,
  judgePositionBias,
  lengthBias,
  ppiMean,
  prplEbConfidenceSequence,
  rankCorrelation,
} from './index';
import type { PpiEstimate } from './ppi';

export interface Vector2 {
  readonly name: string;
  readonly metric: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly expected: unknown;
  readonly tol: number;
  readonly rtol?: number;
  readonly null_reasons?: Readonly<Record<string, string>>;
  readonly source?: string;
  readonly note?: string;
}

export interface Computed {
  readonly actual: unknown;
  /** Reason of each null output, by concrete path. */
  readonly reasons: Record<string, string>;
}

/** Collects the reasons of undefined outputs while a result is turned into the vector's shape. */
class Out {
  readonly reasons: Record<string, string> = {};

  /** A `Reasoned` value at `path`: its value, recording the reason when null. */
  s<T>(x: Reasoned<T>, path: string): T | null {
    if (x.reason !== undefined) {
      this.reasons[path] = x.reason;
      return null;
    }
    return x.value;
  }

  /** An interval at `path` as [lower, upper], or null with its reason. */
  i(x: CertInterval, path: string): [number, number] | null {
    if (x.lower === null) {
      this.reasons[path] = x.reason;
      return null;
    }
    return [x.lower, x.upper];
  }
}

function req<T>(input: Readonly<Record<string, unknown>>, key: string): T {
  if (!(key in input)) throw new Error(`vector input lacks required field ${key}`);
  return input[key] as T;
}

function rankVector(input: Readonly<Record<string, unknown>>, o: Out) {
  const r = rankCorrelation(req<number[]>(input, 'scores_a'), req<number[]>(input, 'scores_b'));
  return {
    n: r.n,
    concordant: r.concordant,
    discordant: r.discordant,
    tied_a: r.tiedA,
    tied_b: r.tiedB,
    tied_both: r.tiedBoth,
    tau_b: o.s(r.tauB, 'tau_b'),
    tau_b_p_value: o.s(r.tauBPValue, 'tau_b_p_value'),
    kendall_p_method: o.s(r.kendallPMethod, 'kendall_p_method'),
    ...(r.kendallVarS === undefined ? {} : { kendall_var_S: r.kendallVarS, kendall_z: r.kendallZ }),
    ranks_a: r.ranksA,
    ranks_b: r.ranksB,
    spearman_rho: o.s(r.spearmanRho, 'spearman_rho'),
    spearman_p_value: o.s(r.spearmanPValue, 'spearman_p_value'),
    spearman_p_method: o.s(r.spearmanPMethod, 'spearman_p_method'),
  };
}

function ppiVector(input: Readonly<Record<string, unknown>>, o: Out) {
  const r = ppiMean(req<number[]>(input, 'Y'), req<number[]>(input, 'Yhat'), req<number[]>(input, 'Yhat_unlabelled'), {
    alpha: req<number>(input, 'alpha'),
  });
  const est = (e: PpiEstimate, key: string) => ({
    estimate: o.s(e.estimate, `${key}.estimate`),
    se: o.s(e.se, `${key}.se`),
    ci95: o.i(e.ci, `${key}.ci95`),
  });
  const pp = r.ppiPlusPlus;
  return {
    n: r.n,
    N: r.N,
    z: r.z,
    classical: est(r.classical, 'classical'),
    judge_only: est(r.judgeOnly, 'judge_only'),
    ppi: { lambda: r.ppi.lambda, ...est(r.ppi, 'ppi') },
    ppi_plus_plus: {
      lambda: o.s(pp.lambda, 'ppi_plus_plus.lambda'),
      ...est(pp, 'ppi_plus_plus'),
      lambda_unclipped: o.s(pp.lambdaUnclipped, 'ppi_plus_plus.lambda_unclipped'),
      cov_y_yhat: o.s(pp.covYYhat, 'ppi_plus_plus.cov_y_yhat'),
      var_yhat_pooled: o.s(pp.varYhatPooled, 'ppi_plus_plus.var_yhat_pooled'),
    },
  };
}

function csVector(input: Readonly<Record<string, unknown>>, o: Out) {
  const r = prplEbConfidenceSequence(req<number[]>(input, 'x'), {
    alpha: req<number>(input, 'alpha'),
    truncation: req<number>(input, 'truncation_c'),
  });
  const lower: Array<number | null> = [];
  const upper: Array<number | null> = [];
  r.steps.forEach((s, k) => {
    const b = o.i(s.bounds, `bounds[${k}]`);
    if (b === null) {
      o.reasons[`lower[${k}]`] = o.reasons[`upper[${k}]`] = o.reasons[`bounds[${k}]`];
      lower.push(null);
      upper.push(null);
    } else {
      lower.push(b[0]);
      upper.push(b[1]);
    }
  });
  // The vectors spell an empty intersection at T as {lower: null, upper: null} and T = 0 as null.
  const f = o.i(r.final, 'final');
  const final = f !== null ? { lower: f[0], upper: f[1] } : r.final.reason === 'no_items' ? null : { lower: null, upper: null };
  return {
    t: r.t,
    lambda: r.steps.map((s) => s.lambda),
    mu_hat: r.steps.map((s) => s.muHat),
    sigma2_hat: r.steps.map((s) => s.sigma2Hat),
    center: r.steps.map((s) => s.center),
    margin: r.steps.map((s) => s.margin),
    lower_raw: r.steps.map((s) => s.lowerRaw),
    upper_raw: r.steps.map((s) => s.upperRaw),
    lower,
    upper,
    final,
  };
}

function altVector(input: Readonly<Record<string, unknown>>, o: Out) {
  const labels = req<string[]>(input, 'labels');
  const names = req<string[]>(input, 'annotators');
  const ratings = req<Array<Array<string | null>>>(input, 'ratings').map((row) => encodeLabels(row, labels));
  const judge = encodeLabels(req<Array<string | null>>(input, 'judge'), labels);
  if (req<string>(input, 'alignment') !== 'accuracy') throw new Error('only accuracy alignment is specified');
  const r = altTest(ratings, judge, labels.length, {
    epsilon: req<number>(input, 'epsilon'),
    q: req<number>(input, 'q'),
    minAnnotatorsPerItem: req<number>(input, 'min_annotators_per_item'),
    minItemsPerAnnotator: req<number>(input, 'min_items_per_annotator'),
  });
  return {
    items_used: r.itemsUsed,
    annotators_tested: r.annotatorsTested,
    winning_rate_omega: o.s(r.winningRate, 'winning_rate_omega'),
    advantage_probability_rho: o.s(r.advantageProbability, 'advantage_probability_rho'),
    passes: o.s(r.passes, 'passes'),
    per_annotator: r.perAnnotator.map((a, j) => {
      const p = `per_annotator[${j}]`;
      return {
        annotator: names[a.annotator],
        n_items: a.nItems,
        tested: a.tested,
        W_f: a.wF,
        W_h: a.wH,
        rho_f: o.s(a.rhoF, `${p}.rho_f`),
        rho_h: o.s(a.rhoH, `${p}.rho_h`),
        mean_d: o.s(a.meanD, `${p}.mean_d`),
        sd_d: o.s(a.sdD, `${p}.sd_d`),
        t: o.s(a.t, `${p}.t`),
        p_value: o.s(a.pValue, `${p}.p_value`),
        p_adjusted_by: o.s(a.pAdjustedBy, `${p}.p_adjusted_by`),
        rejected: o.s(a.rejected, `${p}.rejected`),
      };
    }),
  };
}

type Verdict = string | null;

function posJudgeVector(input: Readonly<Record<string, unknown>>, o: Out) {
  const labels = req<string[]>(input, 'labels');
  const items = req<Array<{ verdict_a_first: Verdict; verdict_b_first: Verdict }>>(input, 'items');
  const aFirst = encodeLabels(
    items.map((i) => i.verdict_a_first),
    labels,
  );
  const bFirst = encodeLabels(
    items.map((i) => i.verdict_b_first),
    labels,
  );
  const codes = { lose: labels.indexOf('Lose'), tie: labels.indexOf('Tie'), win: labels.indexOf('Win') };
  const r = judgePositionBias(
    items.map((_, k) => ({ aFirst: aFirst[k], bFirst: bFirst[k] })),
    { codes },
  );
  return {
    items: r.items,
    items_both_orders: r.itemsBothOrders,
    flips: r.flips,
    reversals: r.reversals,
    flip_rate: o.s(r.flipRate, 'flip_rate'),
    reversal_rate: o.s(r.reversalRate, 'reversal_rate'),
    first_preferred_count: r.firstPreferred.count,
    decisive_verdicts: r.firstPreferred.decisive,
    first_preferred_rate: o.s(r.firstPreferred.rate, 'first_preferred_rate'),
    wilson95: o.i(r.firstPreferred.wilson95, 'wilson95'),
    binom_p_value: o.s(r.firstPreferred.binomPValue, 'binom_p_value'),
  };
}

function posHumanVector(input: Readonly<Record<string, unknown>>, o: Out) {
  const labels = req<string[]>(input, 'labels');
  const records = req<Array<{ item: string; reviewer: string; shown_first: 'a' | 'b'; label: string }>>(input, 'records');
  const codes = encodeLabels(
    records.map((r) => r.label),
    labels,
  );
  const r = humanPositionBias(
    records.map((rec, k) => ({ item: rec.item, reviewer: rec.reviewer, shownFirst: rec.shown_first, label: codes[k] })),
    { codes: { lose: labels.indexOf('Lose'), tie: labels.indexOf('Tie'), win: labels.indexOf('Win') } },
  );
  const f = r.firstShownPreferred;
  return {
    verdicts: r.verdicts,
    first_shown_preferred_count: f.count,
    decisive_verdicts: f.decisive,
    first_shown_preferred_rate: o.s(f.rate, 'first_shown_preferred_rate'),
    wilson95: o.i(f.wilson95, 'wilson95'),
    binom_p_value: o.s(f.binomPValue, 'binom_p_value'),
  };
}

function lengthVector(input: Readonly<Record<string, unknown>>, o: Out) {
  const labels = req<string[]>(input, 'labels');
  if (req<string>(input, 'quantile_method') !== 'linear') throw new Error('only linear (type-7) quantiles are specified');
  const r = lengthBias(req<number[]>(input, 'length_diff'), encodeLabels(req<string[]>(input, 'label'), labels), {
    bins: req<number>(input, 'bins'),
    codes: { lose: labels.indexOf('Lose'), tie: labels.indexOf('Tie'), win: labels.indexOf('Win') },
  });
  return {
    n: r.n,
    quintile_edges: r.quantileEdges,
    bins:
      r.bins === null
        ? null
        : r.bins.map((b, k) => ({
            bin: b.bin,
            lower_edge: b.lowerEdge,
            upper_edge: b.upperEdge,
            n: b.n,
            wins: b.wins,
            ties: b.ties,
            losses: b.losses,
            win_share: o.s(b.winShare, `bins[${k}].win_share`),
            win_share_ties_half: o.s(b.winShareTiesHalf, `bins[${k}].win_share_ties_half`),
            win_share_excl_ties: o.s(b.winShareExclTies, `bins[${k}].win_share_excl_ties`),
          })),
    n_decisive: r.nDecisive,
    slope: o.s(r.slope, 'slope'),
    slope_se: o.s(r.slopeSe, 'slope_se'),
    intercept: o.s(r.intercept, 'intercept'),
    intercept_se: o.s(r.interceptSe, 'intercept_se'),
    z: o.s(r.z, 'z'),
    p_value: o.s(r.pValue, 'p_value'),
    slope_ci95: o.i(r.slopeCi95, 'slope_ci95'),
    log_likelihood: o.s(r.logLikelihood, 'log_likelihood'),
  };
}

/** Computes a vector of vectors-2.json with the public API; throws on an unknown metric. */
export function computeVector2(vec: Vector2): Computed {
  const o = new Out();
  const input = vec.input;
  let actual: unknown;
  switch (vec.metric) {
    case 'rank_correlation':
      actual = rankVector(input, o);
      break;
    case 'ppi_mean':
      actual = ppiVector(input, o);
      break;
    case 'cs_prpl_eb':
      actual = csVector(input, o);
      break;
    case 'alt_test':
      actual = altVector(input, o);
      break;
    case 'position_bias_judge':
      actual = posJudgeVector(input, o);
      break;
    case 'position_bias_human':
      actual = posHumanVector(input, o);
      break;
    case 'length_bias':
      actual = lengthVector(input, o);
      break;
    default:
      throw new Error(`no implementation for vector metric "${vec.metric}" (vector ${vec.name})`);
  }
  return { actual, reasons: o.reasons };
}
