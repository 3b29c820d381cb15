/**
 * MACE (Multi-Annotator Competence Estimation): each annotator either knows the true label (with
 * probability θ_j, the competence) and reports it, or guesses from a personal strategy ξ_j. One
 * parameter per annotator plus a strategy, so it is steadier than Dawid–Skene on small data and flags
 * spammers (STATS-3 part B). Variational Bayes EM as MACE's default, from MACE's own start with the
 * noise set to 0, run to convergence (MACE's 50-iteration default stops early, STATS-3 §0 item 5).
 */
import { type CrowdLabels, indexAnnotations } from './crowd-annotations';
import type { EmOptions } from './dawid-skene';
import { digamma, logSumExp } from './digamma';
import { type Maybe, argmaxFirstDeclared, none, some } from './stats3-types';

export interface MaceOptions extends EmOptions {
  /** Beta prior on guessing (default 0.5). */
  readonly alpha?: number;
  /** Beta prior on knowing (default 0.5). */
  readonly beta?: number;
}

export interface MaceResult {
  /** θ_j = spamming[j][1], what MACE writes to its `.competence` file; null (`no_labels`) for an annotator with no label. */
  readonly competence: Array<Maybe<number>>;
  /** spamming[j][0]; with `competence` it sums to less than 1 (variational, not renormalised, as in MACE). */
  readonly spamming: Array<Maybe<number>>;
  /** ξ_j over the declared labels (also not renormalised). */
  readonly strategy: Array<Maybe<number[]>>;
  readonly posteriors: number[][];
  /** Index of each item's most probable label (first declared label among ties within 1e−12). */
  readonly labels: number[];
  /** −Σ_l P_il ln P_il, with 0 ln 0 = 0. */
  readonly entropy: number[];
  readonly logMarginalLikelihood: number;
  readonly iterations: number;
  readonly converged: boolean;
}

/** MACE's fixed Dirichlet prior on each strategy ξ_j (STATS-3 §3.3 step 3). */
const STRATEGY_PRIOR = 10;

/**
 * MACE by variational Bayes EM.
 * Formula: E-step ln G_il = ln(1/K) + Σ_j ln(s_j ξ_{j,x_ij} + c_j·[x_ij = l]), P_il = G_il/Z_i, ℓ = Σ ln Z_i;
 * per label q = s_j ξ_jx, guess = Σ_l P_il·q/(q + c_j[l = x]), know = P_ix·c_j/(q + c_j);
 * M-step s_j = exp(ψ(E0_j + α) − ψ(E0_j + E1_j + α + β)), c_j = exp(ψ(E1_j + β) − ψ(E0_j + E1_j + α + β)),
 * ξ_jl = exp(ψ(S_jl + 10) − ψ(Σ_l′ S_jl′ + 10K)); start s = c = ½, ξ = 1/K; stop at the first t ≥ 1 with
 * |ℓ_t − ℓ_{t−1}| ≤ tol·|ℓ_t|.
 * @see Hovy, Berg-Kirkpatrick, Vaswani & Hovy (2013) NAACL; dirkhovy/MACE@10f231e `mace.py`; STATS-3 §3.
 */
export function mace<I, A, L>(data: CrowdLabels<I, A, L>, opts: MaceOptions = {}): MaceResult {
  const maxIter = opts.maxIter ?? 1000;
  const tol = opts.tol ?? 1e-12;
  const alpha = opts.alpha ?? 0.5;
  const beta = opts.beta ?? 0.5;
  if (!(Number.isInteger(maxIter) && maxIter >= 1)) throw new RangeError(`max_iter must be a positive integer, got ${maxIter}`);
  if (!(alpha > 0 && beta > 0)) throw new RangeError(`the Beta prior needs α, β > 0, got ${alpha}, ${beta}`);
  const x = indexAnnotations(data, { oneLabelPerAnnotator: true });
  const { nItems: I, nAnnotators: J, nLabels: K } = x;
  if (I === 0) throw new RangeError('MACE needs at least one item');

  // MACE's initialize(noise = 0): every annotator half knowing, half guessing, uniform strategy.
  let s = new Array<number>(J).fill(0.5);
  let c = new Array<number>(J).fill(0.5);
  let xi = Array.from({ length: J }, () => new Array<number>(K).fill(1 / K));
  const logUniform = Math.log(1 / K);

  const eStep = () => {
    const S = Array.from({ length: J }, () => new Array<number>(K).fill(0));
    const E0 = new Array<number>(J).fill(0);
    const E1 = new Array<number>(J).fill(0);
    let logLik = 0;
    // The factor of an annotation depends only on (annotator, label given, l = label given?): J×K×2 logs per
    // iteration instead of one per annotation and label, which matters with hundreds of raters per item.
    const logGuess = xi.map((row, j) => row.map((v) => Math.log(s[j] * v)));
    const logKnow = xi.map((row, j) => row.map((v) => Math.log(s[j] * v + c[j])));
    const P = Array.from({ length: I }, (_, i) => {
      const g = new Array<number>(K).fill(logUniform);
      for (const t of x.byItem[i]) {
        const j = x.annotator[t];
        const lx = x.label[t];
        const lg = logGuess[j][lx];
        for (let l = 0; l < K; l++) g[l] += l === lx ? logKnow[j][lx] : lg;
      }
      const lse = logSumExp(g);
      logLik += lse;
      const p = g.map((v) => Math.exp(v - lse));
      // Expected counts of guessing and knowing: MACE's EStep, written with the normalised posteriors.
      for (const t of x.byItem[i]) {
        const j = x.annotator[t];
        const lx = x.label[t];
        const q = s[j] * xi[j][lx];
        let guess = 0;
        for (let l = 0; l < K; l++) guess += l === lx ? (p[l] * q) / (q + c[j]) : p[l];
        const know = (p[lx] * c[j]) / (q + c[j]);
        S[j][lx] += guess;
        E0[j] += guess;
        E1[j] += know;
      }
      return p;
    });
    return { P, logLik, S, E0, E1 };
  };

  let e = eStep();
  let iterations = 0;
  let converged = false;
  for (let t = 1; t <= maxIter; t++) {
    iterations = t;
    // Variational M-step (MACE's variationalMStep); annotators without labels keep their start values and
    // take no part, because they appear in no item's product.
    const { S, E0, E1 } = e;
    s = s.map((_, j) => Math.exp(digamma(E0[j] + alpha) - digamma(E0[j] + E1[j] + alpha + beta)));
    c = c.map((_, j) => Math.exp(digamma(E1[j] + beta) - digamma(E0[j] + E1[j] + alpha + beta)));
    xi = S.map((row) => {
      const total = digamma(row.reduce((a, b) => a + b, 0) + STRATEGY_PRIOR * K);
      return row.map((v) => Math.exp(digamma(v + STRATEGY_PRIOR) - total));
    });
    const previous = e.logLik;
    e = eStep();
    if (Math.abs(e.logLik - previous) <= tol * Math.abs(e.logLik)) {
      converged = true;
      break;
    }
  }

  const fitted = (j: number) => x.perAnnotator[j] > 0;
  return {
    competence: c.map((v, j) => (fitted(j) ? some(v) : none('no_labels'))),
    spamming: s.map((v, j) => (fitted(j) ? some(v) : none('no_labels'))),
    strategy: xi.map((v, j) => (fitted(j) ? some(v) : none('no_labels'))),
    posteriors: e.P,
    labels: e.P.map(argmaxFirstDeclared),
    entropy: e.P.map((p) => -p.reduce((h, v) => (v > 0 ? h + v * Math.log(v) : h), 0)),
    logMarginalLikelihood: e.logLik,
    iterations,
    converged,
  };
}
