/**
 * Model ratings from pairwise outcomes: the Bradley–Terry maximum-likelihood fit (ties count as
 * half a win, Chatbot Arena style) and FastChat's order-dependent online Elo.
 */
import { type Stat, defined, undefinedStat } from './types';

/** Aggregated outcomes of one pair of models. */
export interface PairOutcome {
  readonly a: string;
  readonly b: string;
  readonly winsA: number;
  readonly winsB: number;
  readonly ties: number;
}

export interface RatingScale {
  /** Elo points per factor `base` of odds (default 400). */
  readonly scale?: number;
  /** Odds base (default 10). */
  readonly base?: number;
  /** Mean rating (default 1000), unless `anchor` pins one model. */
  readonly init?: number;
  /** Pin one model's rating instead of the mean. */
  readonly anchor?: { readonly model: string; readonly rating: number };
}

export interface BradleyTerryResult {
  readonly models: readonly string[];
  /** Elo-scale rating per model; `separation` when the MLE does not exist. */
  readonly ratings: Readonly<Record<string, Stat>>;
  readonly iterations: number;
  readonly converged: boolean;
}

const log1pExp = (x: number): number => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));
const sigmoid = (x: number): number => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));

function reachesAll(adj: boolean[][], forward: boolean): boolean {
  const m = adj.length;
  const seen = new Array<boolean>(m).fill(false);
  const stack = [0];
  seen[0] = true;
  while (stack.length > 0) {
    const i = stack.pop() as number;
    for (let j = 0; j < m; j++) {
      if (!seen[j] && (forward ? adj[i][j] : adj[j][i])) {
        seen[j] = true;
        stack.push(j);
      }
    }
  }
  return seen.every(Boolean);
}

/** Solves A x = b in place by Gaussian elimination with partial pivoting (A small and dense). */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(A[r][c]) > Math.abs(A[p][c])) p = r;
    [A[c], A[p]] = [A[p], A[c]];
    [b[c], b[p]] = [b[p], b[c]];
    for (let r = c + 1; r < n; r++) {
      const f = A[r][c] / A[c][c];
      for (let k = c; k < n; k++) A[r][k] -= f * A[c][k];
      b[r] -= f * b[c];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r];
    for (let k = r + 1; k < n; k++) s -= A[r][k] * x[k];
    x[r] = s / A[r][r];
  }
  return x;
}

/**
 * Bradley–Terry ratings by maximum likelihood (Newton's method with step halving), ties as half
 * a win for each side. The MLE exists only when the "has beaten" graph is strongly connected;
 * otherwise every rating is `null` with reason `separation` (a model or group never loses).
 * Formula: P(i beats j) = 1/(1 + base^((R_j − R_i)/scale)); maximise Σ_ij w_ij ln P(i beats j),
 * w_ij = wins_ij + ½ ties_ij; ratings centred on `init` (or pinned by `anchor`).
 * @see Bradley & Terry (1952) Biometrika 39; Hunter (2004) Ann. Statist. 32; Chiang et al. (2024)
 * Chatbot Arena, FastChat `elo_analysis.py` `compute_elo_mle_with_tie`; STATS.md §5.3.
 */
export function bradleyTerry(
  outcomes: readonly PairOutcome[],
  opts: RatingScale & { models?: readonly string[]; maxIterations?: number } = {},
): BradleyTerryResult {
  const scale = opts.scale ?? 400;
  const base = opts.base ?? 10;
  const init = opts.init ?? 1000;
  const models = [...(opts.models ?? [])];
  const index = new Map<string, number>(models.map((m, i) => [m, i]));
  const idx = (name: string) => {
    let i = index.get(name);
    if (i === undefined) {
      i = models.push(name) - 1;
      index.set(name, i);
    }
    return i;
  };
  for (const o of outcomes) {
    if (o.a === o.b) throw new Error(`a model cannot play itself: ${o.a}`);
    idx(o.a);
    idx(o.b);
  }
  const m = models.length;
  const w = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  for (const o of outcomes) {
    if (o.winsA < 0 || o.winsB < 0 || o.ties < 0) throw new RangeError('outcome counts must be non-negative');
    const i = idx(o.a);
    const j = idx(o.b);
    w[i][j] += o.winsA + o.ties / 2;
    w[j][i] += o.winsB + o.ties / 2;
  }
  if (opts.anchor && !index.has(opts.anchor.model)) throw new Error(`anchor model ${opts.anchor.model} has no outcomes`);
  const adj = w.map((row) => row.map((x) => x > 0));
  if (m === 0) return { models, ratings: {}, iterations: 0, converged: true };
  if (!reachesAll(adj, true) || !reachesAll(adj, false)) {
    const ratings: Record<string, Stat> = {};
    for (const name of models) ratings[name] = undefinedStat('separation');
    return { models, ratings, iterations: 0, converged: false };
  }
  const theta = new Array<number>(m).fill(0);
  const logLik = (t: number[]): number => {
    let ll = 0;
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (w[i][j] > 0) ll -= w[i][j] * log1pExp(t[j] - t[i]);
    return ll;
  };
  let ll = logLik(theta);
  let totalGames = 0;
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) totalGames += w[i][j];
  const maxIt = opts.maxIterations ?? 100;
  let iterations = 0;
  let converged = m === 1;
  while (!converged && iterations < maxIt) {
    iterations++;
    const g = new Array<number>(m).fill(0);
    const H = Array.from({ length: m }, () => new Array<number>(m).fill(0));
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        const nij = w[i][j] + w[j][i];
        if (i === j || nij === 0) continue;
        const p = sigmoid(theta[i] - theta[j]);
        g[i] += w[i][j] - nij * p;
        const h = nij * p * (1 - p);
        H[i][i] += h;
        H[i][j] -= h;
      }
    }
    let gmax = 0;
    for (let i = 1; i < m; i++) gmax = Math.max(gmax, Math.abs(g[i]));
    if (gmax <= 1e-11 * Math.max(1, totalGames)) {
      converged = true;
      break;
    }
    // θ_0 is held at 0 (the likelihood only depends on differences); Newton on the rest.
    const step = solve(
      H.slice(1).map((row) => row.slice(1)),
      g.slice(1),
    );
    let t = 1;
    for (let half = 0; half < 60; half++) {
      const cand = theta.map((x, i) => (i === 0 ? x : x + t * step[i - 1]));
      const llc = logLik(cand);
      if (llc >= ll) {
        for (let i = 1; i < m; i++) theta[i] = cand[i];
        ll = llc;
        break;
      }
      t /= 2;
    }
  }
  const perLogUnit = scale / Math.log(base);
  let shift: number;
  if (opts.anchor) {
    shift = opts.anchor.rating - perLogUnit * theta[index.get(opts.anchor.model) as number];
  } else {
    const mean = theta.reduce((s, x) => s + x, 0) / m;
    shift = init - perLogUnit * mean;
  }
  const ratings: Record<string, Stat> = {};
  models.forEach((name, i) => {
    ratings[name] = defined(perLogUnit * theta[i] + shift);
  });
  return { models, ratings, iterations, converged };
}

/** One battle for online Elo: `outcome` names the winner side, or a tie. */
export interface EloBattle {
  readonly a: string;
  readonly b: string;
  readonly outcome: 'a' | 'b' | 'tie';
}

/**
 * Online Elo over battles in the given order (the result depends on that order). Models start at
 * `init` when first seen.
 * Formula: e_a = 1/(1 + base^((r_b − r_a)/scale)); r_a += K(s_a − e_a); r_b += K(1 − s_a − e_b), s_a ∈ {1, ½, 0}.
 * @see Elo (1978) The Rating of Chessplayers; FastChat `elo_analysis.py` `compute_elo` (K = 4); STATS.md §5.3.
 */
export function eloOnline(
  battles: readonly EloBattle[],
  opts: { k?: number; scale?: number; base?: number; init?: number } = {},
): Record<string, number> {
  const K = opts.k ?? 4;
  const scale = opts.scale ?? 400;
  const base = opts.base ?? 10;
  const init = opts.init ?? 1000;
  const r: Record<string, number> = {};
  for (const { a, b, outcome } of battles) {
    if (a === b) throw new Error(`a model cannot play itself: ${a}`);
    const ra = r[a] ?? init;
    const rb = r[b] ?? init;
    const ea = 1 / (1 + base ** ((rb - ra) / scale));
    const eb = 1 / (1 + base ** ((ra - rb) / scale));
    const sa = outcome === 'a' ? 1 : outcome === 'b' ? 0 : 0.5;
    r[a] = ra + K * (sa - ea);
    r[b] = rb + K * (1 - sa - eb);
  }
  return r;
}
