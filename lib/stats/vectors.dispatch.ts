/**
 * Test support for vectors.test.ts: computes, for one reference vector, an object shaped like its
 * `expected` field using only the public API. Unknown metrics throw, so a new kind of vector
 * fails until it is implemented.
 */
import {
  type Stat,
  type AgreementCount,
  type AlphaMetric,
  type Interval,
  type Weighting,
  alignmentRate,
  alignmentRateWithoutTies,
  bennettS,
  bootstrapStat,
  bradleyTerry,
  classificationReport,
  classwiseAccuracy,
  clopperPearsonInterval,
  cohenKappa,
  cohenKappaWithSe,
  congerKappa,
  consolidatePositionSwap,
  countsFromLabels,
  encodeLabels,
  eloOnline,
  exactBootstrapOfMean,
  fleissKappa,
  fleissKappaPerCategory,
  gwetAc1,
  gwetAc1FromTable,
  hybridReviewPlan,
  judgeVsAnnotators,
  kmpAggregate,
  krippendorffAlpha,
  krippendorffAlphaFromTable,
  lenientClassificationReport,
  macroMean,
  mtBenchAgreement,
  normalCdf,
  percentAgreement,
  percentAgreementPairwise,
  percentAgreementUnanimous,
  randolphKappa,
  ratingMatrixFromLabels,
  scottPi,
  tableFromLabels,
  waldInterval,
  wilsonInterval,
  winRates,
  wtlCounts,
} from './index';

export interface Vector {
  readonly name: string;
  readonly metric: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly expected: unknown;
  readonly tol: number;
  readonly source?: string;
  readonly note?: string;
}

type Lab = string | number;
type Rows = Array<Array<Lab | null>>;

/** The declared sets named in STATS.md §0 (pairwise in the vectors' spelling, rubric). */
const WTL = ['Lose', 'Tie', 'Win'];
const RUBRIC = ['Yes', 'To some extent', 'No'];

const v = (s: Stat): number | null => s.value;
const iv = (i: Interval): [number | null, number | null] => [i.lower, i.upper];
const ac = (a: AgreementCount) => ({ agree: a.agree, total: a.total, rate: a.rate.value });

/** Declared label set of a vector (labels / categories / value_domain), or the sorted observed values. */
function labelSet(input: Readonly<Record<string, unknown>>, values: ReadonlyArray<Lab | null>): Lab[] {
  for (const key of ['labels', 'categories', 'value_domain']) {
    const d = input[key];
    if (Array.isArray(d)) return d as Lab[];
    if (d && typeof d === 'object') return Object.keys(d).map(Number);
  }
  const seen = [...new Set(values.filter((x): x is Lab => x !== null))];
  return seen.every((x) => typeof x === 'number') ? (seen as number[]).sort((a, b) => a - b) : (seen as string[]).sort();
}

const flat = (rows: Rows): Array<Lab | null> => rows.flat();
const numericValues = (labels: Lab[]) => (labels.every((l) => typeof l === 'number') ? (labels as number[]) : undefined);

/** Two-rater contingency table from `table` or from `rater1`/`rater2`. */
function twoRaterTable(input: Readonly<Record<string, unknown>>): number[][] {
  if (input.table) return input.table as number[][];
  const r1 = input.rater1 as Lab[];
  const r2 = input.rater2 as Lab[];
  return tableFromLabels(r1, r2, labelSet(input, [...r1, ...r2]));
}

/** Units × raters rows from `ratings` or from `rater1`/`rater2`. */
function ratingRows(input: Readonly<Record<string, unknown>>): Rows {
  if (input.ratings) return input.ratings as Rows;
  const r1 = input.rater1 as Array<Lab | null>;
  const r2 = input.rater2 as Array<Lab | null>;
  return r1.map((x, i) => [x, r2[i]]);
}

function kappaFor(metric: string): Weighting {
  return metric.endsWith('_linear') ? 'linear' : metric.endsWith('_quadratic') ? 'quadratic' : 'unweighted';
}

function alpha(input: Readonly<Record<string, unknown>>, metric: AlphaMetric): number | null {
  if (input.table) return v(krippendorffAlphaFromTable(input.table as number[][], { metric }));
  const rows = ratingRows(input);
  const labels = labelSet(input, flat(rows));
  return v(krippendorffAlpha(countsFromLabels(rows, labels), { metric, values: numericValues(labels) }));
}

function multiCounts(input: Readonly<Record<string, unknown>>) {
  const rows = ratingRows(input);
  const labels = labelSet(input, flat(rows));
  return { rows, labels, counts: countsFromLabels(rows, labels) };
}

function cohen(input: Readonly<Record<string, unknown>>, metric: string, expected: unknown): unknown {
  const table = twoRaterTable(input);
  if (expected && typeof expected === 'object' && 'unweighted' in expected) {
    return {
      unweighted: v(cohenKappa(table)),
      linear: v(cohenKappa(table, { weights: 'linear' })),
      quadratic: v(cohenKappa(table, { weights: 'quadratic' })),
    };
  }
  const r = cohenKappaWithSe(table, { weights: kappaFor(metric) });
  if (expected && typeof expected === 'object') return { kappa: v(r.kappa), ase: v(r.ase), ci95: iv(r.ci) };
  return v(r.kappa);
}

function gwet(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (input.table) {
    const t = input.table as number[][];
    const a = gwetAc1FromTable(t);
    return {
      value: v(a),
      ac1: v(a),
      ac2_linear: v(gwetAc1FromTable(t, { weights: 'linear' })),
      ac2_quadratic: v(gwetAc1FromTable(t, { weights: 'quadratic' })),
    };
  }
  const { rows, counts } = multiCounts(input);
  const a = gwetAc1(counts);
  const f = fleissKappa(counts);
  return {
    value: v(a),
    ac1: v(a),
    ac2_linear: v(gwetAc1(counts, { weights: 'linear' })),
    ac2_quadratic: v(gwetAc1(counts, { weights: 'quadratic' })),
    pa: a.po,
    pe: a.pe,
    pe_ac1: a.pe,
    fleiss: v(f),
    pe_fleiss: f.pe,
    // Pairwise data without a declared set: AC1 on the observed labels vs on the declared Lose/Tie/Win.
    ...(flat(rows).every((x) => x === null || WTL.includes(String(x)))
      ? { categories_observed_only_q2: v(gwetAc1(counts)), categories_declared_q3: v(gwetAc1(countsFromLabels(rows, WTL))) }
      : {}),
  };
}

function scalarOr(obj: Record<string, unknown>, expected: unknown): unknown {
  return expected === null || typeof expected === 'number' ? obj.value : obj;
}

function classification(input: Readonly<Record<string, unknown>>, lenient: boolean): unknown {
  const human = input.human as string[];
  const judge = input.judge as string[];
  const labels = lenient ? RUBRIC : (input.labels as string[]);
  const confusion = tableFromLabels(human, judge, labels);
  // These vectors are scikit-learn outputs with `labels=` declared: 0/0 counts as 0.
  const r = lenient
    ? lenientClassificationReport(confusion, labels, input.mapping as Record<string, string>, { zeroDivision: 'zero' })
    : classificationReport(confusion, labels, { zeroDivision: 'zero' });
  return {
    per_class: {
      precision: r.perClass.map((c) => v(c.precision)),
      recall: r.perClass.map((c) => v(c.recall)),
      f1: r.perClass.map((c) => v(c.f1)),
      support: r.perClass.map((c) => c.support),
    },
    precision_per_class: r.perClass.map((c) => v(c.precision)),
    macro_precision: v(r.macroPrecision),
    macro_recall: v(r.macroRecall),
    macro_f1: v(r.macroF1),
    weighted_f1: v(r.weightedF1),
    accuracy: v(r.accuracy),
    kappa: v(r.kappa),
  };
}

function hybrid(input: Readonly<Record<string, unknown>>): unknown {
  const pred = input.judge_predictions as Record<string, number>;
  const corr = input.judge_correct as Record<string, number>;
  const plan = hybridReviewPlan(
    Object.keys(pred).map((label) => ({ label, predicted: pred[label], correct: corr[label] })),
    { target: input.target_accuracy as number },
  );
  return {
    classwise_accuracy: Object.fromEntries(plan.classes.map((c) => [c.label, v(c.accuracy)])),
    acc_judge: v(plan.accJudge),
    reliable_class: plan.acceptedClass,
    reviewed: plan.reviewed,
    acc_hybrid: v(plan.accHybrid),
    effort_saved: v(plan.effortSaved),
    target: plan.target,
    errors_to_fix: plan.errorsToFix,
    extra_reviews_expected: plan.extraReviewsExpected,
    acc_expected_after: v(plan.accExpectedAfter),
    effort_saved_expected_after: v(plan.effortSavedExpectedAfter),
    extra_reviews_worst_case: plan.extraReviewsWorstCase,
    effort_saved_worst_case: v(plan.effortSavedWorstCase),
  };
}

function bootstrapVector(input: Readonly<Record<string, unknown>>): unknown {
  const values = input.per_item_agreement as number[];
  const exact = exactBootstrapOfMean(values);
  // Monte-Carlo check named in the vector's source: seeded B = 10000 matches the exact
  // distribution within 0.01 per support point.
  const mc = bootstrapStat(
    values.length,
    (items) => {
      let s = 0;
      for (let t = 0; t < items.length; t++) s += values[items[t]];
      return { value: s / items.length };
    },
    { seed: 20250601, replicates: 10000, quantile: 'inverse_cdf', keepReplicates: true },
  );
  const sample = mc.values ?? new Float64Array(0);
  for (const d of exact.distribution) {
    const share = sample.filter((x) => Math.abs(x - d.value) < 1e-12).length / sample.length;
    if (Math.abs(share - d.probability) > 0.01) {
      throw new Error(`Monte-Carlo bootstrap share ${share} at ${d.value} is not within 0.01 of ${d.probability}`);
    }
  }
  if (mc.interval.lower !== exact.interval.lower || mc.interval.upper !== exact.interval.upper) {
    throw new Error(`Monte-Carlo inverse-CDF interval ${JSON.stringify(mc.interval)} differs from the exact one`);
  }
  return {
    distribution: Object.fromEntries(exact.distribution.map((d) => [String(d.value), d.probability])),
    se: exact.se,
    ci95_inverse_cdf: iv(exact.interval),
  };
}

function tieOrThrow(w: string): 'tie' {
  if (!w.includes('tie')) throw new Error(`unknown battle outcome ${w}`);
  return 'tie';
}

const winnerCode = (w: string): number => (w === 'model_1' ? 2 : w === 'model_2' ? 0 : 1);

/** Computes the vector's expected shape from the library. Throws for an unknown metric. */
export function computeVector(vec: Vector): unknown {
  const input = vec.input;
  const metric = vec.metric;
  switch (metric) {
    case 'percent_agreement':
      return v(percentAgreement(twoRaterTable(input)));
    case 'percent_agreement_pairwise':
      return v(percentAgreementPairwise(multiCounts(input).counts));
    case 'percent_agreement_unanimous': {
      const { rows, counts } = multiCounts(input);
      return v(percentAgreementUnanimous(counts, { minRatings: rows[0].length }));
    }
    case 'cohen_kappa':
    case 'cohen_kappa_linear':
    case 'cohen_kappa_quadratic':
      return cohen(input, metric, vec.expected);
    case 'scott_pi':
      return v(scottPi(twoRaterTable(input)));
    case 'bennett_S': {
      const table = twoRaterTable(input);
      if (input.q !== undefined && input.q !== table.length) throw new Error('q differs from the table size');
      return v(bennettS(table));
    }
    case 'fleiss_kappa':
    case 'fleiss_kappa_generalized': {
      const counts = input.counts ? (input.counts as number[][]) : multiCounts(input).counts;
      return scalarOr(
        { value: v(fleissKappa(counts)), fleiss: v(fleissKappa(counts)), randolph_free_marginal: v(randolphKappa(counts)) },
        vec.expected,
      );
    }
    case 'fleiss_kappa_per_category':
      return fleissKappaPerCategory(multiCounts(input).counts).map(v);
    case 'krippendorff_alpha_nominal':
    case 'krippendorff_alpha_ordinal':
    case 'krippendorff_alpha_interval':
    case 'krippendorff_alpha_ratio':
      return alpha(input, metric.slice('krippendorff_alpha_'.length) as AlphaMetric);
    case 'krippendorff_alpha':
      return { nominal: alpha(input, 'nominal'), ordinal: alpha(input, 'ordinal'), interval: alpha(input, 'interval') };
    case 'gwet_ac1':
      return scalarOr(gwet(input), vec.expected);
    case 'multi_coefficients': {
      const { rows, labels, counts } = multiCounts(input);
      const listwise = rows.filter((r) => r.every((x) => x !== null));
      return {
        gwet_ac1: v(gwetAc1(counts)),
        fleiss_generalized: v(fleissKappa(counts)),
        scott_fleiss_generalized: v(fleissKappa(counts)),
        cohen_conger_generalized: v(congerKappa(ratingMatrixFromLabels(rows, labels), labels.length)),
        cohen_listwise_deletion: v(
          cohenKappa(
            tableFromLabels(
              listwise.map((r) => r[0]),
              listwise.map((r) => r[1]),
              labels,
            ),
          ),
        ),
        krippendorff_nominal: alpha(input, 'nominal'),
        krippendorff_ordinal: alpha(input, 'ordinal'),
        krippendorff_interval: alpha(input, 'interval'),
        pa_pairwise: v(percentAgreementPairwise(counts)),
        pa: v(percentAgreementPairwise(counts)),
      };
    }
    case 'alignment_rate':
    case 'alignment_rate_no_ties': {
      const confusion = tableFromLabels(input.gold as string[], input.judge as string[], WTL);
      return metric === 'alignment_rate' ? v(alignmentRate(confusion).rate) : ac(alignmentRateWithoutTies(confusion, { tieIndex: 1 }));
    }
    case 'mtbench_agreement': {
      if (input.votes) {
        const norm = (x: string) => (x.includes('tie') ? 'tie' : x);
        const labels = ['model_a', 'tie', 'model_b'];
        const groups = Object.values(input.votes as Record<string, { gpt4: string[]; human: string[] }>).map((g) => ({
          judge: encodeLabels(g.gpt4.map(norm), labels),
          humans: encodeLabels(g.human.map(norm), labels),
        }));
        const r = mtBenchAgreement(groups, { tieCode: 1 });
        return {
          gpt4_vs_human_with_tie: ac(r.judgeVsHuman.withTies),
          gpt4_vs_human_without_tie: ac(r.judgeVsHuman.withoutTies),
          human_vs_human_with_tie: ac(r.humanVsHuman.withTies),
          human_vs_human_without_tie: ac(r.humanVsHuman.withoutTies),
        };
      }
      const enc = (k: string) => encodeLabels(input[k] as string[], WTL);
      return ac(judgeVsAnnotators(enc('judge'), [enc('annotator1'), enc('annotator2')]).judgeVsHuman.withTies);
    }
    case 'win_rate': {
      const rates = (c: { win: number; tie: number; loss: number }) => {
        const r = winRates(c);
        return {
          W: c.win,
          T: c.tie,
          L: c.loss,
          ties_half: v(r.half),
          ties_excluded: v(r.exclude),
          ties_as_non_win: v(r.non_win),
          win_or_tie: v(r.win_or_tie),
        };
      };
      if (typeof input.W === 'number') return rates({ win: input.W, tie: input.T as number, loss: input.L as number });
      return {
        gold: rates(wtlCounts(encodeLabels(input.gold as string[], WTL))),
        judge: rates(wtlCounts(encodeLabels(input.judge as string[], WTL))),
      };
    }
    case 'win_rate_position_swap': {
      const pairs = input.judgments_for_model_1 as Array<[string, string]>;
      const c = wtlCounts(
        consolidatePositionSwap(
          pairs.map((p) => winnerCode(p[0])),
          pairs.map((p) => winnerCode(p[1])),
        ),
      );
      const r = winRates(c);
      return { W: c.win, L: c.loss, T: c.tie, win_rate: v(r.non_win), win_rate_adjusted: v(r.half) };
    }
    case 'kmp_aggregate': {
      const general = input.general_criteria_win_rates as number[];
      const principles = input.principle_criteria_win_rates as Record<string, number[]>;
      const k = kmpAggregate({ general, principles });
      return {
        general_level_acc: v(k.generalLevelAcc),
        principle_level_acc: Object.fromEntries(Object.entries(k.principleLevelAcc).map(([p, s]) => [p, v(s)])),
        mean_principle_acc: v(k.meanPrincipleAcc),
        overall_acc: v(k.overallAcc),
        NOT_overall_mean_of_22: v(macroMean([...general, ...Object.values(principles).flat()])),
      };
    }
    case 'precision_recall_f1':
      return classification(input, false);
    case 'precision_recall_f1_lenient':
      return classification(input, true);
    case 'classwise_accuracy': {
      const confusion = tableFromLabels(input.human as string[], input.judge as string[], RUBRIC);
      return Object.fromEntries(classwiseAccuracy(confusion, RUBRIC).map((c) => [c.label, v(c.accuracy)]));
    }
    case 'hybrid_review':
      return hybrid(input);
    case 'proportion_ci_95': {
      const x = input.successes as number;
      const n = input.n as number;
      const z = input.z as number;
      return {
        wilson: iv(wilsonInterval(x, n, { z })),
        clopper_pearson: iv(clopperPearsonInterval(x, n, { level: 2 * normalCdf(z) - 1 })),
        wald_clipped: iv(waldInterval(x, n, { z })),
      };
    }
    case 'bootstrap_percentile_ci':
      return bootstrapVector(input);
    case 'bradley_terry_elo': {
      const battles = input.battles as Record<string, Record<string, number>>;
      const outcomes = Object.entries(battles).map(([pair, r]) => {
        const [a, b] = pair.split('-');
        return { a, b, winsA: r[a], winsB: r[b], ties: r.tie };
      });
      const bt = bradleyTerry(outcomes, { scale: input.scale as number, base: input.base as number, init: input.init as number });
      return Object.fromEntries(Object.entries(bt.ratings).map(([m, s]) => [m, v(s)]));
    }
    case 'elo_online': {
      const battles = (input.battles as Array<[string, string, string]>).map(([a, b, w]) => ({
        a,
        b,
        outcome: w === 'model_a' ? ('a' as const) : w === 'model_b' ? ('b' as const) : tieOrThrow(w),
      }));
      return eloOnline(battles, {
        k: input.K as number,
        scale: input.scale as number,
        base: input.base as number,
        init: input.init as number,
      });
    }
    default:
      throw new Error(`no implementation for vector metric "${metric}" (vector ${vec.name})`);
  }
}
