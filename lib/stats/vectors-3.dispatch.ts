/**
 * Test support for vectors-3.test.ts: computes, for one reference vector of `vectors-3.json`, an
 * object shaped like its `expected` field using only the public API, plus the reason of every null it
 * produced (keyed by the concrete path, e.g. `confusion.A[1]`). Unknown metrics throw, so a new kind
 * of vector fails until it is implemented.
 */
import {
  type AcceptanceMethod,
  type ActiveEstimate,
  activeMean,
  annotatorQuality,
  tuneTau,
  type AcceptanceHypotheses,
  type AcceptanceStratum,
  type Maybe,
  type ReliabilityBin,
  binomialErrorBound,
  calibration,
  dawidSkene,
  digamma,
  errorBoundedAcceptance,
  mace,
} from './index';

export interface Vector3 {
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

  /** A `Maybe` value at `path`: its value, recording the reason when null. */
  s<T>(x: Maybe<T>, path: string): T | null {
    if (x.reason !== undefined) {
      this.reasons[path] = x.reason;
      return null;
    }
    return x.value;
  }
}

type Input = Readonly<Record<string, unknown>>;

function req<T>(input: Input, key: string): T {
  if (!(key in input)) throw new Error(`vector input lacks required field ${key}`);
  return input[key] as T;
}

type Triple = readonly [string, string, string];

function crowd(input: Input) {
  return {
    labels: req<string[]>(input, 'labels'),
    annotators: req<string[]>(input, 'annotators'),
    items: req<string[]>(input, 'items'),
    annotations: req<Triple[]>(input, 'annotations'),
  };
}

function emOptions(input: Input) {
  return { maxIter: req<number>(input, 'max_iter'), tol: req<number>(input, 'tol') };
}

function byName<T>(names: readonly string[], values: readonly T[]): Record<string, T> {
  return Object.fromEntries(names.map((n, j) => [n, values[j]]));
}

function dawidSkeneVector(input: Input, o: Out) {
  const data = crowd(input);
  const r = dawidSkene(data, emOptions(input));
  return {
    iterations: r.iterations,
    converged: r.converged,
    log_likelihood: r.logLikelihood,
    class_priors: r.classPriors,
    confusion: byName(
      data.annotators,
      r.confusion.map((rows, j) => rows.map((row, k) => o.s(row, `confusion.${data.annotators[j]}[${k}]`))),
    ),
    posteriors: r.posteriors,
    labels: r.labels.map((k) => data.labels[k]),
  };
}

function maceVector(input: Input, o: Out) {
  const data = crowd(input);
  const r = mace(data, { ...emOptions(input), alpha: req<number>(input, 'alpha'), beta: req<number>(input, 'beta') });
  const perAnnotator = <T>(values: ReadonlyArray<Maybe<T>>, key: string) =>
    byName(
      data.annotators,
      values.map((v, j) => o.s(v, `${key}.${data.annotators[j]}`)),
    );
  return {
    iterations: r.iterations,
    converged: r.converged,
    log_marginal_likelihood: r.logMarginalLikelihood,
    competence: perAnnotator(r.competence, 'competence'),
    spamming: perAnnotator(r.spamming, 'spamming'),
    strategy: perAnnotator(r.strategy, 'strategy'),
    posteriors: r.posteriors,
    entropy: r.entropy,
    labels: r.labels.map((k) => data.labels[k]),
  };
}

function acceptanceVector(input: Input, o: Out) {
  const r = errorBoundedAcceptance(req<AcceptanceStratum[]>(input, 'strata'), {
    epsilon: req<number>(input, 'epsilon'),
    delta: req<number>(input, 'delta'),
    method: req<AcceptanceMethod>(input, 'method'),
    hypotheses: req<AcceptanceHypotheses>(input, 'hypotheses'),
  });
  return {
    m: r.m,
    per_stratum: r.perStratum.map((s, j) => {
      const p = `per_stratum[${j}]`;
      return {
        name: s.name,
        n: s.n,
        errors: s.errors,
        error_rate: o.s(s.errorRate, `${p}.error_rate`),
        p_value: s.pValue,
        cp_upper_delta: o.s(s.cpUpperDelta, `${p}.cp_upper_delta`),
        cp_upper_bonferroni: o.s(s.cpUpperBonferroni, `${p}.cp_upper_bonferroni`),
        ...(s.pAdjusted === undefined ? {} : { p_adjusted: o.s(s.pAdjusted, `${p}.p_adjusted`) }),
        alpha_used: o.s(s.alphaUsed, `${p}.alpha_used`),
        accepted: s.accepted,
      };
    }),
    accepted: r.accepted,
    ...(r.cumulativeSteps === undefined
      ? {}
      : {
          cumulative_steps: r.cumulativeSteps.map((c, j) => ({
            through: c.through,
            n: c.n,
            errors: c.errors,
            p_value: c.pValue,
            cp_upper_delta: o.s(c.cpUpperDelta, `cumulative_steps[${j}].cp_upper_delta`),
          })),
        }),
    judge_labelled_items: r.judgeLabelledItems,
    human_labels: r.humanLabels,
    coverage: o.s(r.coverage, 'coverage'),
    effort_saved: o.s(r.effortSaved, 'effort_saved'),
    error_bound: o.s(r.errorBound, 'error_bound'),
    final_error_rate_bound: o.s(r.finalErrorRateBound, 'final_error_rate_bound'),
    estimated_judge_errors: r.estimatedJudgeErrors,
  };
}

function reliabilityRows(bins: readonly ReliabilityBin[], key: string, o: Out) {
  return bins.map((b, k) => ({
    bin: b.bin,
    lower: b.lower,
    upper: b.upper,
    n: b.n,
    mean_confidence: o.s(b.meanConfidence, `${key}[${k}].mean_confidence`),
    accuracy: o.s(b.accuracy, `${key}[${k}].accuracy`),
    gap: o.s(b.gap, `${key}[${k}].gap`),
  }));
}

function calibrationVector(input: Input, o: Out) {
  const labels = req<string[]>(input, 'labels');
  const gold = req<string[]>(input, 'gold');
  const sampled = 'samples' in input;
  const r = calibration(
    sampled
      ? { labels, gold, samples: req<string[][]>(input, 'samples') }
      : { labels, gold, predicted: req<string[]>(input, 'predicted'), confidence: req<number[]>(input, 'confidence') },
    { nBins: req<number>(input, 'n_bins') },
  );
  const width = o.s(r.reliability, 'reliability');
  const adaptive = o.s(r.adaptiveReliability, 'adaptive_reliability');
  return {
    n: r.n,
    ...(sampled ? { predicted: r.predicted.map((k) => labels[k]), confidence: r.confidence } : {}),
    correct: r.correct,
    accuracy: o.s(r.accuracy, 'accuracy'),
    mean_confidence: o.s(r.meanConfidence, 'mean_confidence'),
    brier_top_label: o.s(r.brierTopLabel, 'brier_top_label'),
    brier_multiclass: o.s(r.brierMulticlass, 'brier_multiclass'),
    ece: o.s(r.ece, 'ece'),
    reliability: width === null ? null : reliabilityRows(width, 'reliability', o),
    adaptive_edges: o.s(r.adaptiveEdges, 'adaptive_edges'),
    adaptive_ece: o.s(r.adaptiveEce, 'adaptive_ece'),
    adaptive_reliability: adaptive === null ? null : reliabilityRows(adaptive, 'adaptive_reliability', o),
  };
}

function activeVector(input: Input, o: Out) {
  const r = activeMean({
    yhat: req(input, 'yhat'),
    uncertainty: req(input, 'uncertainty'),
    budget: req(input, 'budget'),
    tau: req(input, 'tau'),
    alpha: req(input, 'alpha'),
    xiActive: req(input, 'xi_active'),
    xiUniform: req(input, 'xi_uniform'),
    y: req(input, 'y'),
  });
  const est = (e: ActiveEstimate, key: string) => ({
    estimate: o.s(e.estimate, `${key}.estimate`),
    se: o.s(e.se, `${key}.se`),
    ci: o.s(e.ci, `${key}.ci`),
    labels_used: e.labelsUsed,
  });
  return {
    pi: r.pi,
    expected_labels: r.expectedLabels,
    z: r.z,
    active: est(r.active, 'active'),
    uniform: est(r.uniform, 'uniform'),
    classical: est(r.classical, 'classical'),
  };
}

function qualityVector(input: Input, o: Out) {
  const names = req<string[]>(input, 'annotators');
  const r = annotatorQuality(
    {
      labels: req<string[]>(input, 'labels'),
      annotators: names,
      ratings: req<Array<Array<string | null>>>(input, 'ratings'),
      gold: req<Array<string | null>>(input, 'gold'),
      adjudicated: req<Array<string | null>>(input, 'adjudicated'),
    },
    { z: req<number>(input, 'z') },
  );
  if (r.length !== names.length) throw new Error(`${r.length} annotators computed, ${names.length} declared`);
  return {
    per_annotator: byName(
      names,
      r.map((a, j) => {
        const p = `per_annotator.${names[j]}`;
        return {
          gold_n: a.goldN,
          gold_correct: a.goldCorrect,
          gold_accuracy: o.s(a.goldAccuracy, `${p}.gold_accuracy`),
          gold_wilson95: o.s(a.goldWilson95, `${p}.gold_wilson95`),
          loo_n: a.looN,
          loo_agree: a.looAgree,
          loo_tied: a.looTied,
          loo_no_others: a.looNoOthers,
          loo_rate: o.s(a.looRate, `${p}.loo_rate`),
          loo_wilson95: o.s(a.looWilson95, `${p}.loo_wilson95`),
          kappa_n: a.kappaN,
          kappa_vs_adjudicated: o.s(a.kappaVsAdjudicated, `${p}.kappa_vs_adjudicated`),
        };
      }),
    ),
  };
}

/** Computes a vector of vectors-3.json with the public API; throws on an unknown metric. */
export function computeVector3(vec: Vector3): Computed {
  const o = new Out();
  const input = vec.input;
  let actual: unknown;
  switch (vec.metric) {
    case 'dawid_skene':
      actual = dawidSkeneVector(input, o);
      break;
    case 'mace':
      actual = maceVector(input, o);
      break;
    case 'binomial_error_bound': {
      const r = binomialErrorBound(req(input, 'errors'), req(input, 'n'), req(input, 'epsilon'), req(input, 'gamma'));
      actual = { p_value: r.pValue, cp_upper: r.cpUpper, accept: r.accept };
      break;
    }
    case 'error_bounded_acceptance':
      actual = acceptanceVector(input, o);
      break;
    case 'annotator_quality':
      actual = qualityVector(input, o);
      break;
    case 'calibration':
      actual = calibrationVector(input, o);
      break;
    case 'active_mean':
      actual = activeVector(input, o);
      break;
    case 'active_mean_tau_tuning': {
      const r = tuneTau(req(input, 'yhat_tuning'), req(input, 'y_tuning'), req(input, 'budget'), req(input, 'tau_grid'));
      actual = { tau: r.tau, objective_at_tau: r.objectiveAtTau, objective: r.objective };
      break;
    }
    case 'digamma':
      actual = { digamma: req<number[]>(input, 'x').map(digamma) };
      break;
    default:
      throw new Error(`no implementation for vector metric "${vec.metric}" (vector ${vec.name})`);
  }
  return { actual, reasons: o.reasons };
}
