/**
 * Dawid–Skene EM: each item's true class estimated from many annotators' labels, each annotator
 * weighted by a full confusion matrix learned at the same time (STATS-3 part A). The maximum-likelihood
 * EM of the 1979 paper: no smoothing, so exact zeros appear as in the published table; deterministic
 * start from the soft majority vote; no random restarts.
 */
import { type CrowdLabels, indexAnnotations } from './crowd-annotations';
import { logSumExp } from './digamma';
import { type Maybe, argmaxFirstDeclared, none, some } from './stats3-types';

export interface EmOptions {
  /** Iteration cap (default 1000); reaching it without meeting the stopping rule gives `converged` = false. */
  readonly maxIter?: number;
  /** Relative change of the log-likelihood that stops EM (default 1e−12, STATS-3 §0 item 2). */
  readonly tol?: number;
}

export interface DawidSkeneResult {
  /** p_k, in declared label order; an unused declared class gets exactly 0. */
  readonly classPriors: number[];
  /**
   * confusion[a][k] = P(annotator a answers l | true class k) over l, in declared order; rows are true
   * classes. A row with no mass is null (`no_mass_for_class`). Its diagonal is the annotator's competence
   * per class.
   */
  readonly confusion: Array<Array<Maybe<number[]>>>;
  /** posteriors[i][k], in item order. */
  readonly posteriors: number[][];
  /** Index of each item's most probable class (first declared label among ties within 1e−12). */
  readonly labels: number[];
  readonly logLikelihood: number;
  readonly iterations: number;
  readonly converged: boolean;
}

/**
 * Dawid–Skene EM on declared labels, annotators and items.
 * Formula: start T_ik = Σ_j n_ijk / Σ_j Σ_l n_ijl; M-step p_k = mean_i T_ik,
 * π_jkl = Σ_i T_ik n_ijl / Σ_l′ Σ_i T_ik n_ijl′; E-step a_ik = ln p_k + Σ_jl n_ijl ln π_jkl,
 * T_ik = exp(a_ik − LSE_k a_i·), ℓ = Σ_i LSE_k a_i·; stop after t ≥ 2 when |ℓ_t − ℓ_{t−1}| ≤ tol·|ℓ_t|.
 * @see Dawid & Skene (1979) Appl. Statist. 28:20–28; dallascard/dawid_skene@9f49db7; STATS-3 §2.
 */
export function dawidSkene<I, A, L>(data: CrowdLabels<I, A, L>, opts: EmOptions = {}): DawidSkeneResult {
  const maxIter = opts.maxIter ?? 1000;
  const tol = opts.tol ?? 1e-12;
  if (!(Number.isInteger(maxIter) && maxIter >= 1)) throw new RangeError(`max_iter must be a positive integer, got ${maxIter}`);
  const x = indexAnnotations(data);
  const { nItems: I, nAnnotators: J, nLabels: K } = x;
  if (I === 0) throw new RangeError('Dawid–Skene needs at least one item');

  // Soft majority vote (the paper's eq. 3.1): the share of item i's labels that are k.
  let T = Array.from({ length: I }, (_, i) => {
    const row = new Array<number>(K).fill(0);
    for (const t of x.byItem[i]) row[x.label[t]] += 1;
    const n = x.byItem[i].length;
    return row.map((c) => c / n);
  });

  let priors: number[] = [];
  let pi: number[][][] = [];
  let rowMass: number[][] = [];
  let logLik = NaN;
  let previous = NaN;
  let iterations = 0;
  let converged = false;
  for (let t = 1; t <= maxIter; t++) {
    iterations = t;
    // M-step.
    priors = new Array<number>(K).fill(0);
    for (let i = 0; i < I; i++) for (let k = 0; k < K; k++) priors[k] += T[i][k];
    priors = priors.map((s) => s / I);
    const counts = Array.from({ length: J }, () => Array.from({ length: K }, () => new Array<number>(K).fill(0)));
    for (let a = 0; a < x.item.length; a++) {
      const Ti = T[x.item[a]];
      const c = counts[x.annotator[a]];
      const l = x.label[a];
      for (let k = 0; k < K; k++) c[k][l] += Ti[k];
    }
    rowMass = counts.map((c) => c.map((row) => row.reduce((s, v) => s + v, 0)));
    // An undefined row (no mass) takes part as zeros, which only matters for a class nobody can have.
    pi = counts.map((c, j) => c.map((row, k) => (rowMass[j][k] > 0 ? row.map((v) => v / rowMass[j][k]) : row.map(() => 0))));
    // E-step in log space, so many annotators do not underflow (STATS-3 §2.3 step 3).
    const logPi = pi.map((c) => c.map((row) => row.map(Math.log)));
    const logPrior = priors.map(Math.log);
    logLik = 0;
    T = Array.from({ length: I }, (_, i) => {
      const a = logPrior.slice();
      for (const s of x.byItem[i]) {
        const lp = logPi[x.annotator[s]];
        const l = x.label[s];
        for (let k = 0; k < K; k++) a[k] += lp[k][l];
      }
      const lse = logSumExp(a);
      if (lse === -Infinity) throw new Error(`Dawid–Skene: item ${i} has no possible class`);
      logLik += lse;
      return a.map((v) => Math.exp(v - lse));
    });
    if (t >= 2 && Math.abs(logLik - previous) <= tol * Math.abs(logLik)) {
      converged = true;
      break;
    }
    previous = logLik;
  }

  return {
    classPriors: priors,
    confusion: pi.map((c, j) => c.map((row, k) => (rowMass[j][k] > 0 ? some(row) : none('no_mass_for_class')))),
    posteriors: T,
    labels: T.map(argmaxFirstDeclared),
    logLikelihood: logLik,
    iterations,
    converged,
  };
}
