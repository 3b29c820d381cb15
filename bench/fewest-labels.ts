/**
 * The real-data figures of docs/guide/fewest-labels.md (issue 28): how many human labels active labelling needs
 * beside uniform labelling, and how much of a judge's output error-bounded acceptance accepts beside Padó's plan.
 * People are simulated from the labels that exist: asking for an item's label returns its published ground truth.
 *
 * Run: npx tsx bench/fewest-labels.ts            (prints the tables)
 *      npx tsx bench/fewest-labels.ts --write    (and puts them in the docs page, between its markers)
 * Reads CONCORD_PUBLIC_DATA (pandalm/, mrbench/). bench/fewest-labels.test.ts recomputes the page's tables.
 */
import fs from 'node:fs';
import path from 'node:path';
import { mrbenchLabels, mrbenchRecords, mrbenchReplies, mrbenchRunLines, mrbenchItemId } from '@/lib/io/adapters/mrbench';
import { pandalmLabel } from '@/lib/io/adapters/pandalm';
import {
  type Rng,
  activeMean,
  createRng,
  drawLabelledItems,
  errorBoundedAcceptance,
  hybridReviewPlan,
  labellingProbabilities,
  ppiMean,
  strataByPredictedLabel,
} from '@/lib/stats';

/** Seeded repetitions of every simulated design (the page's figures; the test uses the same). */
export const REPETITIONS = 100;
/** The interval half-widths asked about, in win-rate points / 100. */
export const TARGETS = [0.03, 0.04, 0.05] as const;
/** Floors of the active design compared (τ; τ·b is the smallest probability). */
export const TAUS = [0.2, 0.5, 0.8] as const;
/** Budgets tried: b = 0.01 … 1.00. */
const BUDGETS = Array.from({ length: 100 }, (_, k) => (k + 1) / 100);
export const EPSILON = 0.05;
export const DELTA = 0.05;
/** Shares of the judged items people label first, as the calibration sample of either acceptance rule. */
export const CALIBRATION_SHARES = [0.2, 0.5] as const;

const SCORE = { win: 1, tie: 0.5, lose: 0 } as const;
/** The 97.5 % normal quantile (scipy's printed value, as lib/stats uses). */
const Z = 1.959963984540054;

/* ----- data ----- */

/**
 * PandaLM's 999 pairs: y the win rate of response 1 by the majority of the three annotators (each item has a unique
 * plurality), ŷ GPT-3.5's verdict, u half the distance between GPT-3.5's and PandaLM-7B's verdicts (as Concord's
 * `second_judge` source computes it). GPT-3.5 gave no readable verdict on 25 items ("garbage"): ŷ = ½ and u = ½
 * there, the most uncertain an item can be.
 */
export function loadPandalm(dir: string) {
  const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, 'pandalm', f), 'utf8')) as Record<string, unknown>[];
  const human = read('testset-v1.json');
  const gpt = new Map(read('gpt-3.5-turbo-testset-v1.json').map((r) => [Number(r.idx), pandalmLabel(r.gpt_result)]));
  const p7b = new Map(read('pandalm-7b-testset-v1.json').map((r) => [Number(r.idx), pandalmLabel(r.pandalm_result)]));
  const gold: ('win' | 'tie' | 'lose')[] = [];
  const judge: ('win' | 'tie' | 'lose' | null)[] = [];
  const y: number[] = [];
  const yhat: number[] = [];
  const u: number[] = [];
  for (const r of human) {
    const counts = new Map<string, number>();
    for (const a of ['annotator1', 'annotator2', 'annotator3']) {
      const l = pandalmLabel(r[a])!;
      counts.set(l, (counts.get(l) ?? 0) + 1);
    }
    const top = [...counts].sort((a, b) => b[1] - a[1])[0][0] as 'win' | 'tie' | 'lose';
    const g = gpt.get(Number(r.idx)) ?? null;
    const p = p7b.get(Number(r.idx)) ?? null;
    gold.push(top);
    judge.push(g);
    y.push(SCORE[top]);
    yhat.push(g === null ? 0.5 : SCORE[g]);
    u.push(g === null || p === null ? 0.5 : Math.abs(SCORE[g] - SCORE[p]) / 2);
  }
  return { gold, judge, y, yhat, u };
}

/**
 * MRBench V3's gold labels and, as the judge, MRBench V1's labels of the same replies (same dialogue, tutor and
 * text: 1,464 replies), per V3 dimension; a reply V1 did not label on a dimension is left out of it.
 */
export function loadMrbench(dir: string) {
  const v3 = path.join(dir, 'mrbench', 'mrbench_v3_devset.json');
  const text = new Map<string, string>();
  const gold = new Map<string, Record<string, unknown>>();
  for (const r of mrbenchRecords(v3)) {
    if ('ok' in r) continue;
    for (const [tutor, reply] of mrbenchReplies(r.record).replies) {
      const item = mrbenchItemId(r.key, tutor);
      text.set(item, reply.response.trim());
      gold.set(item, mrbenchLabels(reply.annotation ?? {}).labels);
    }
  }
  const dims = ['mistake_identification', 'mistake_location', 'providing_guidance', 'actionability'];
  const { lines } = mrbenchRunLines(path.join(dir, 'mrbench', 'MRBench_V1.json'), 'mrbench-v1', new Set(dims), (item) => text.get(item));
  return dims.map((dimension) => {
    const pairs: { predicted: string; human: string }[] = [];
    for (const l of lines) {
      const p = l.labels[dimension];
      const h = gold.get(l.item)?.[dimension];
      if (typeof p === 'string' && typeof h === 'string') pairs.push({ predicted: p.trim(), human: h.trim() });
    }
    return { dimension, pairs };
  });
}

/* ----- active against uniform labelling ----- */

type Halves = { labels: number; halfWidth: number; covered: number };

function summary(rows: { labels: number; lo: number | null; hi: number | null }[], truth: number): Halves {
  let labels = 0;
  let half = 0;
  let covered = 0;
  for (const r of rows) {
    labels += r.labels;
    half += r.lo === null ? Infinity : (r.hi! - r.lo) / 2;
    if (r.lo !== null && r.lo <= truth && truth <= r.hi!) covered++;
  }
  return { labels: labels / rows.length, halfWidth: half / rows.length, covered: covered / rows.length };
}

export const DESIGNS = ['uniformPpiPlusPlus', 'uniform', ...TAUS.map((t) => `active${t}`)] as const;
const DESIGN_NAMES: Record<string, string> = {
  uniformPpiPlusPlus: 'uniform, PPI++',
  uniform: 'uniform, IPW',
  ...Object.fromEntries(TAUS.map((t) => [`active${t}`, `active τ=${t}`])),
};

/**
 * Mean labels, mean half-width and coverage of one design at budget BUDGETS[k] over the repetitions. Uniform
 * designs draw every item with probability b; the active ones with π from PandaLM-7B's disagreement
 * (`labellingProbabilities`). Seeds depend on the budget, the repetition and the design only.
 */
function evaluate(data: ReturnType<typeof loadPandalm>, design: string, k: number, repetitions: number): Halves {
  const { y, yhat, u } = data;
  const n = y.length;
  const truth = y.reduce((a, v) => a + v, 0) / n;
  const b = BUDGETS[k];
  const rows: { labels: number; lo: number | null; hi: number | null }[] = [];
  const tau = design.startsWith('active') ? Number(design.slice('active'.length)) : null;
  const pi = tau === null ? y.map(() => b) : labellingProbabilities(u, b, tau);
  for (let r = 0; r < repetitions; r++) {
    const seed = 1_000_003 * (k + 1) + 16 * r + (tau === null ? 0 : 1 + TAUS.indexOf(tau as (typeof TAUS)[number]));
    const xi = drawLabelledItems(pi, seed);
    if (design === 'uniformPpiPlusPlus') {
      const yL: number[] = [];
      const yhatL: number[] = [];
      const yhatU: number[] = [];
      xi.forEach((x, i) => (x ? (yL.push(y[i]), yhatL.push(yhat[i])) : yhatU.push(yhat[i])));
      if (yL.length >= 2 && yhatU.length >= 1) {
        const c = ppiMean(yL, yhatL, yhatU).ppiPlusPlus.ci;
        rows.push({ labels: yL.length, lo: c.lower, hi: c.upper });
      } else if (yL.length === n) {
        // Everything labelled: the classical interval, which PPI++ becomes with nothing left to predict.
        const se = Math.sqrt(y.reduce((a, v) => a + (v - truth) ** 2, 0) / n / n);
        rows.push({ labels: n, lo: truth - Z * se, hi: truth + Z * se });
      } else rows.push({ labels: yL.length, lo: null, hi: null });
      continue;
    }
    const zero = y.map(() => 0);
    const res = activeMean({
      yhat,
      uncertainty: u,
      budget: b,
      tau: tau ?? 0.5,
      pi,
      xiActive: tau === null ? zero : xi,
      xiUniform: tau === null ? xi : zero,
      y: y.map((v, i) => (xi[i] ? v : null)),
    });
    const e = tau === null ? res.uniform : res.active;
    rows.push({ labels: e.labelsUsed, lo: e.ci.value?.[0] ?? null, hi: e.ci.value?.[1] ?? null });
  }
  return summary(rows, truth);
}

/**
 * For each design and target half-width: the mean labels at the smallest budget b ∈ {0.01, …, 1} whose mean
 * half-width is at most the target (bisection over the grid: the half-width falls as the budget grows), with the
 * coverage of the true win rate there; null when even b = 1 does not reach it.
 */
export function activeVsUniform(data: ReturnType<typeof loadPandalm>, repetitions: number) {
  const n = data.y.length;
  const truth = data.y.reduce((a, v) => a + v, 0) / n;
  const memo = new Map<string, Halves>();
  const at = (design: string, k: number) => {
    const key = `${design}@${k}`;
    if (!memo.has(key)) memo.set(key, evaluate(data, design, k, repetitions));
    return memo.get(key)!;
  };
  const needed: Record<string, ({ labels: number; covered: number } | null)[]> = {};
  for (const design of DESIGNS) {
    needed[design] = TARGETS.map((target) => {
      if (at(design, BUDGETS.length - 1).halfWidth > target) return null;
      let lo = -1;
      let hi = BUDGETS.length - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (at(design, mid).halfWidth <= target) hi = mid;
        else lo = mid;
      }
      return { labels: at(design, hi).labels, covered: at(design, hi).covered };
    });
  }
  return { n, truth, fullHalfWidth: at('uniform', BUDGETS.length - 1).halfWidth, needed, oracle: oracleGain(data) };
}

/**
 * The most any labelling probability driven by this uncertainty could gain, knowing the labels (an oracle): with
 * π ∝ √v_g inside each uncertainty level g, v_g the mean of (y − ŷ)² there, the weighted term Σ(y − ŷ)²/π of the
 * variance shrinks by the factor (Σ_g n_g·√v_g / n)² / (Σ_g n_g·v_g / n) against uniform π (Cauchy–Schwarz).
 */
export function oracleGain(data: ReturnType<typeof loadPandalm>): number {
  const groups = new Map<number, { n: number; sq: number }>();
  data.y.forEach((v, i) => {
    const g = groups.get(data.u[i]) ?? { n: 0, sq: 0 };
    g.n++;
    g.sq += (v - data.yhat[i]) ** 2;
    groups.set(data.u[i], g);
  });
  const n = data.y.length;
  let root = 0;
  let mean = 0;
  for (const g of groups.values()) {
    root += (g.n * Math.sqrt(g.sq / g.n)) / n;
    mean += g.sq / n;
  }
  return (root * root) / mean;
}

/* ----- error-bounded acceptance against Padó's plan ----- */

type AcceptanceRow = {
  data: string;
  items: number;
  calibration: number;
  ebaShare: number;
  ebaError: number | null;
  ebaOver: number;
  padoShare: number;
  padoError: number | null;
  padoOver: number;
};

/** A seeded random subset of k of 0..n−1 (partial Fisher–Yates). */
function sample(n: number, k: number, rng: Rng): Set<number> {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + rng.nextInt(n - i);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return new Set(a.slice(0, k));
}

/**
 * Repeatedly: people label a random calibration sample; each rule picks the predicted classes whose labels it keeps
 * for the rest. The accepted share of the rest, the actual error of the kept labels against the published ground
 * truth (mean over the repetitions where something was kept), and how often that error exceeded ε.
 */
export function acceptanceOn(
  name: string,
  pairs: readonly { predicted: string; human: string }[],
  share: number,
  repetitions: number,
): AcceptanceRow {
  const labels = [...new Set(pairs.flatMap((p) => [p.predicted, p.human]))].sort();
  const n = pairs.length;
  const k = Math.round(share * n);
  const acc = { eba: { share: 0, err: 0, errReps: 0, over: 0 }, pado: { share: 0, err: 0, errReps: 0, over: 0 } };
  for (let r = 0; r < repetitions; r++) {
    const cal = sample(n, k, createRng(7_777 + r));
    const calPairs = pairs.filter((_, i) => cal.has(i));
    const strata = strataByPredictedLabel(
      labels,
      calPairs,
      pairs.map((p) => p.predicted),
    );
    const eba = new Set(errorBoundedAcceptance(strata, { epsilon: EPSILON, delta: DELTA, method: 'holm' }).accepted);
    const plan = hybridReviewPlan(
      labels.map((label) => ({
        label,
        predicted: calPairs.filter((p) => p.predicted === label).length,
        correct: calPairs.filter((p) => p.predicted === label && p.human === label).length,
      })),
      { target: 0.95 },
    );
    const pado = new Set(plan.acceptedClass === null ? [] : [plan.acceptedClass]);
    for (const [rule, kept] of [
      ['eba', eba],
      ['pado', pado],
    ] as const) {
      let taken = 0;
      let wrong = 0;
      pairs.forEach((p, i) => {
        if (cal.has(i) || !kept.has(p.predicted)) return;
        taken++;
        if (p.human !== p.predicted) wrong++;
      });
      const a = acc[rule];
      a.share += taken / (n - k);
      if (taken) {
        a.err += wrong / taken;
        a.errReps++;
        if (wrong / taken > EPSILON) a.over++;
      }
    }
  }
  return {
    data: name,
    items: n,
    calibration: k,
    ebaShare: acc.eba.share / repetitions,
    ebaError: acc.eba.errReps ? acc.eba.err / acc.eba.errReps : null,
    ebaOver: acc.eba.over / repetitions,
    padoShare: acc.pado.share / repetitions,
    padoError: acc.pado.errReps ? acc.pado.err / acc.pado.errReps : null,
    padoOver: acc.pado.over / repetitions,
  };
}

/* ----- the page ----- */

export type Figures = { active: ReturnType<typeof activeVsUniform>; acceptance: AcceptanceRow[]; repetitions: number };

export function computeFigures(dir: string, repetitions = REPETITIONS): Figures {
  const pandalm = loadPandalm(dir);
  const active = activeVsUniform(pandalm, repetitions);
  const pandalmPairs = pandalm.judge.flatMap((j, i) => (j === null ? [] : [{ predicted: j, human: pandalm.gold[i] }]));
  const acceptance: AcceptanceRow[] = [];
  const sets = [
    { name: 'PandaLM, GPT-3.5', pairs: pandalmPairs },
    ...loadMrbench(dir).map((d) => ({ name: `MRBench ${d.dimension}, V1`, pairs: d.pairs })),
  ];
  for (const s of sets) for (const share of CALIBRATION_SHARES) acceptance.push(acceptanceOn(s.name, s.pairs, share, repetitions));
  return { active, acceptance, repetitions };
}

const pct = (x: number | null, digits = 1) => (x === null ? 'n/a' : `${(100 * x).toFixed(digits)} %`);
const labelsCell = (x: { labels: number } | null) => (x === null ? 'not reached' : String(Math.round(x.labels)));

/** The two tables of the page, in Markdown. */
export function renderFigures(f: Figures): string {
  const { needed, n, truth, fullHalfWidth } = f.active;
  const lines: string[] = [];
  lines.push(
    `PandaLM, ${n} items, true win rate of response 1 ${pct(truth)}; ${f.repetitions} seeded repetitions per budget; ` +
      `with every item labelled the 95 % half-width is ±${(100 * fullHalfWidth).toFixed(2)} points.`,
    '',
    `| half-width | uniform, PPI++ | uniform, IPW | active τ=${TAUS.join(' | active τ=')} | saved by the best active vs PPI++ |`,
    '|---|---|---|---|---|---|---|',
  );
  TARGETS.forEach((t, j) => {
    const need = DESIGNS.map((d) => needed[d][j]);
    const best = need
      .slice(2)
      .reduce<number | null>((m, x) => (x === null ? m : m === null ? Math.round(x.labels) : Math.min(m, Math.round(x.labels))), null);
    const base = need[0];
    const saving = best === null || base === null ? 'n/a' : pct(1 - best / Math.round(base.labels), 0);
    lines.push(`| ±${(100 * t).toFixed(0)} points | ${need.map(labelsCell).join(' | ')} | ${saving} |`);
  });
  lines.push(
    '',
    `Coverage of the true win rate by the 95 % intervals at those budgets (±3 / ±4 / ±5 points): ` +
      DESIGNS.map((d) => `${DESIGN_NAMES[d]} ${needed[d].map((x) => (x === null ? 'n/a' : pct(x.covered, 0))).join(' / ')}`).join('; ') +
      '.',
    '',
    `Best possible with this uncertainty (an oracle that knows each level's error): the term of the variance the ` +
      `labels pay for falls to ${pct(f.active.oracle)} of uniform labelling's.`,
  );
  lines.push(
    '',
    `| data, judge | items | calibration | accepted, error-bounded | its actual error | error > ε | accepted, Padó | its actual error | error > ε |`,
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of f.acceptance) {
    lines.push(
      `| ${r.data} | ${r.items} | ${r.calibration} | ${pct(r.ebaShare)} | ${pct(r.ebaError)} | ${pct(r.ebaOver, 0)} | ${pct(r.padoShare)} | ${pct(r.padoError)} | ${pct(r.padoOver, 0)} |`,
    );
  }
  return lines.join('\n');
}

export const PAGE = path.join(import.meta.dirname, '..', 'docs', 'guide', 'fewest-labels.md');
export const START = '<!-- fewest-labels:start (bench/fewest-labels.ts --write) -->';
export const END = '<!-- fewest-labels:end -->';

/** The generated block of the page, between its markers. */
export function pageBlock(page: string): string {
  const a = page.indexOf(START);
  const b = page.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${PAGE} has no ${START} … ${END} block`);
  return page.slice(a + START.length, b).trim();
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { publicDataDir } = await import('@/lib/io/public-data');
  const started = performance.now();
  const text = renderFigures(computeFigures(publicDataDir()));
  console.log(text);
  console.error(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  if (process.argv.includes('--write')) {
    const page = fs.readFileSync(PAGE, 'utf8');
    const a = page.indexOf(START);
    const b = page.indexOf(END);
    if (a < 0 || b < a) throw new Error(`${PAGE} has no ${START} … ${END} block`);
    fs.writeFileSync(PAGE, `${page.slice(0, a + START.length)}\n${text}\n${page.slice(b)}`);
  }
}
