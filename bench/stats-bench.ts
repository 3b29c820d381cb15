/**
 * Benchmark of the statistics core on deterministic synthetic data.
 * Run: npx tsx bench/stats-bench.ts
 *
 * (a) Dashboard pass over 1,000,000 criterion-level labels (20 models × 5,000 items × 10 criteria,
 *     each with two reviewers' labels, the gold label and a judge label, as Int8Array codes):
 *     inter-annotator agreement per criterion, judge alignment per criterion and per model,
 *     MT-Bench-style agreement, and the KMP leaderboard per model for gold and for the judge.
 * (b) Item bootstrap, B = 1,000, on 300 items × 23 criteria: per-criterion κ and alignment plus
 *     macro κ, macro ordinal α and pooled alignment from the same resamples.
 * Each figure is the median of several timed runs after one warm-up run.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  type CriterionOutcome,
  type Stat,
  PAIRWISE_LABELS,
  alignmentSummary,
  cohenKappa,
  contingencyTable,
  createRng,
  encodeLabels,
  gwetAc1FromTable,
  itemBootstrap,
  judgeVsAnnotators,
  kmpLeaderboard,
  krippendorffAlphaFromTable,
  macroMean,
  percentAgreement,
  scottPi,
  wilsonInterval,
  wtlCounts,
} from '@/lib/stats/index';

const RUNS = 7;
const Q = 3;

interface Labels {
  readonly a1: Int8Array;
  readonly a2: Int8Array;
  readonly gold: Int8Array;
  readonly judge: Int8Array;
}

/** Synthetic pairwise labels: a latent outcome per label, reviewers right 80 % of the time, the judge 72 % with a lean to "win". */
function makeLabels(n: number, seed: number, winShare: (group: number) => number, groupSize: number): Labels {
  const rng = createRng(seed);
  const a1 = new Int8Array(n);
  const a2 = new Int8Array(n);
  const gold = new Int8Array(n);
  const judge = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    const pw = winShare(Math.floor(i / groupSize));
    const u = rng.nextFloat();
    const truth = u < pw ? 2 : u < pw + 0.2 ? 1 : 0;
    const noisy = (p: number) => (rng.nextFloat() < p ? truth : rng.nextInt(Q));
    a1[i] = noisy(0.8);
    a2[i] = noisy(0.8);
    gold[i] = a1[i] === a2[i] ? a1[i] : noisy(0.9);
    judge[i] = rng.nextFloat() < 0.1 ? 2 : noisy(0.72);
  }
  return { a1, a2, gold, judge };
}

function addInto(acc: number[][], t: number[][]): void {
  for (let k = 0; k < Q; k++) for (let l = 0; l < Q; l++) acc[k][l] += t[k][l];
}
const zeros = () => Array.from({ length: Q }, () => new Array<number>(Q).fill(0));

// ---------------------------------------------------------------- (a) dashboard pass
const MODELS = 20;
const ITEMS = 5000;
const CRITERIA = 10;
/** 3 general criteria, two principles of 3 criteria, and the overall verdict. */
const KINDS: Array<{ kind: 'general' } | { kind: 'principle'; principle: string } | { kind: 'overall' }> = [
  { kind: 'general' },
  { kind: 'general' },
  { kind: 'general' },
  { kind: 'principle', principle: 'P1' },
  { kind: 'principle', principle: 'P1' },
  { kind: 'principle', principle: 'P1' },
  { kind: 'principle', principle: 'P2' },
  { kind: 'principle', principle: 'P2' },
  { kind: 'principle', principle: 'P2' },
  { kind: 'overall' },
];

let lastDashboard = '';
let lastBootstrap = '';

function dashboard(d: Labels): number {
  const perCriterionIaa = Array.from({ length: CRITERIA }, zeros);
  const perCriterionAlign = Array.from({ length: CRITERIA }, zeros);
  const perModelAlign = Array.from({ length: MODELS }, zeros);
  const rows: unknown[] = [];
  let judgeVsHumanAgree = 0;
  let judgeVsHumanTotal = 0;
  for (let m = 0; m < MODELS; m++) {
    const goldOutcomes: CriterionOutcome[] = [];
    const judgeOutcomes: CriterionOutcome[] = [];
    for (let c = 0; c < CRITERIA; c++) {
      const from = (m * CRITERIA + c) * ITEMS;
      const view = (x: Int8Array) => x.subarray(from, from + ITEMS);
      const a1 = view(d.a1);
      const a2 = view(d.a2);
      const gold = view(d.gold);
      const judge = view(d.judge);
      addInto(perCriterionIaa[c], contingencyTable(a1, a2, Q));
      const align = contingencyTable(gold, judge, Q);
      addInto(perCriterionAlign[c], align);
      addInto(perModelAlign[m], align);
      const mt = judgeVsAnnotators(judge, [a1, a2]);
      judgeVsHumanAgree += mt.judgeVsHuman.withTies.agree;
      judgeVsHumanTotal += mt.judgeVsHuman.withTies.total;
      goldOutcomes.push({ id: `c${c}`, counts: wtlCounts(gold), ...KINDS[c] });
      judgeOutcomes.push({ id: `c${c}`, counts: wtlCounts(judge), ...KINDS[c] });
    }
    rows.push(kmpLeaderboard(goldOutcomes, { policy: 'half' }), kmpLeaderboard(judgeOutcomes, { policy: 'half' }));
  }
  const kappas: Stat[] = [];
  const alignments: Stat[] = [];
  for (let c = 0; c < CRITERIA; c++) {
    const t = perCriterionIaa[c];
    const n = t.flat().reduce((s, x) => s + x, 0);
    const diag = t[0][0] + t[1][1] + t[2][2];
    kappas.push(cohenKappa(t));
    rows.push(
      cohenKappa(t, { weights: 'linear' }),
      cohenKappa(t, { weights: 'quadratic' }),
      scottPi(t),
      gwetAc1FromTable(t),
      krippendorffAlphaFromTable(t),
      krippendorffAlphaFromTable(t, { metric: 'ordinal' }),
      percentAgreement(t),
      wilsonInterval(diag, n),
    );
    const s = alignmentSummary(perCriterionAlign[c]);
    alignments.push(s.rate.rate);
    rows.push(s, wilsonInterval(s.rate.agree, s.rate.total));
  }
  for (let m = 0; m < MODELS; m++) rows.push(alignmentSummary(perModelAlign[m]));
  const macroK = macroMean(kappas).value ?? 0;
  const macroA = macroMean(alignments).value ?? 0;
  lastDashboard =
    `macro κ(A1, A2) = ${macroK.toFixed(3)}, macro alignment = ${macroA.toFixed(3)}, ` +
    `judge vs each reviewer = ${(judgeVsHumanAgree / judgeVsHumanTotal).toFixed(3)}, ${rows.length} result objects`;
  return macroK + macroA + judgeVsHumanAgree / judgeVsHumanTotal + rows.length;
}

// ---------------------------------------------------------------- (b) bootstrap
const B_ITEMS = 300;
const B_CRITERIA = 23;
const B_REPLICATES = 1000;

function bootstrap(d: Labels): number {
  const crit = Array.from({ length: B_CRITERIA }, (_, c) => {
    const from = c * B_ITEMS;
    const view = (x: Int8Array) => x.subarray(from, from + B_ITEMS);
    return { a1: view(d.a1), a2: view(d.a2), gold: view(d.gold), judge: view(d.judge) };
  });
  const keys = crit.map((_, c) => ({ kappa: `kappa_c${c}`, alignment: `alignment_c${c}`, judgeKappa: `judge_kappa_c${c}` }));
  const res = itemBootstrap(
    B_ITEMS,
    (items) => {
      const out: Record<string, Stat> = {};
      const kappas: Stat[] = [];
      const alphas: Stat[] = [];
      let agree = 0;
      let total = 0;
      for (let c = 0; c < B_CRITERIA; c++) {
        const iaa = contingencyTable(crit[c].a1, crit[c].a2, Q, items);
        const align = contingencyTable(crit[c].gold, crit[c].judge, Q, items);
        const k = cohenKappa(iaa);
        kappas.push(k);
        alphas.push(krippendorffAlphaFromTable(iaa, { metric: 'ordinal' }));
        const s = alignmentSummary(align);
        agree += s.rate.agree;
        total += s.rate.total;
        out[keys[c].kappa] = k;
        out[keys[c].alignment] = s.rate.rate;
        out[keys[c].judgeKappa] = s.kappa;
      }
      out.kappa_macro = macroMean(kappas);
      out.alpha_ordinal_macro = macroMean(alphas);
      out.alignment_pooled = total === 0 ? { value: null, reason: 'no_items' } : { value: agree / total };
      return out;
    },
    { seed: 20260101, replicates: B_REPLICATES },
  );
  const k = res.kappa_macro;
  lastBootstrap =
    `macro κ = ${k.estimate.value?.toFixed(3)} [${k.interval.lower?.toFixed(3)}, ${k.interval.upper?.toFixed(3)}], ` +
    `${k.undefinedReplicates} undefined replicates`;
  return (k.interval.lower ?? 0) + Object.keys(res).length;
}

// ---------------------------------------------------------------- timing
function time(fn: () => number): { median: number; min: number; max: number; check: number } {
  let check = fn();
  const ms: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    check += fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], min: ms[0], max: ms[ms.length - 1], check };
}

const fmt = (x: number) => x.toFixed(1).padStart(7);
const verdict = (ms: number, budget: number) => (ms < budget ? `within the ${budget} ms budget` : `OVER the ${budget} ms budget`);

const labelsA = makeLabels(MODELS * ITEMS * CRITERIA, 1, (g) => 0.3 + 0.02 * Math.floor(g / CRITERIA), ITEMS);
const labelsB = makeLabels(B_ITEMS * B_CRITERIA, 2, () => 0.4, B_ITEMS);

console.log(
  `Concord statistics core benchmark — node ${process.version}, ${os.cpus().length} cores, median of ${RUNS} runs after a warm-up`,
);
const a = time(() => dashboard(labelsA));
console.log(
  `(a) agreement + alignment + leaderboard, ${MODELS} models × ${ITEMS.toLocaleString('en-US')} items × ${CRITERIA} criteria ` +
    `= ${(MODELS * ITEMS * CRITERIA).toLocaleString('en-US')} criterion-level labels (2 reviewers + gold + judge each)`,
);
console.log(`    median ${fmt(a.median)} ms   (min ${a.min.toFixed(1)}, max ${a.max.toFixed(1)})   ${verdict(a.median, 1000)}`);
console.log(`    ${lastDashboard}`);
const b = time(() => bootstrap(labelsB));
console.log(
  `(b) item bootstrap, ${B_ITEMS} items × ${B_CRITERIA} criteria, B = ${B_REPLICATES.toLocaleString('en-US')}, ${3 * B_CRITERIA + 3} statistics per replicate`,
);
console.log(`    median ${fmt(b.median)} ms   (min ${b.min.toFixed(1)}, max ${b.max.toFixed(1)})   ${verdict(b.median, 1000)}`);
console.log(`    ${lastBootstrap}`);

// Not in the budgets: turning one million label strings into codes, for when SQL returns text.
const strings = Array.from(labelsA.a1, (c) => PAIRWISE_LABELS[c]);
const e = time(() => encodeLabels(strings, PAIRWISE_LABELS).length);
console.log(`    (info) encodeLabels on 1,000,000 label strings: median ${fmt(e.median)} ms`);
if (!Number.isFinite(a.check + b.check + e.check)) throw new Error('benchmark produced a non-finite checksum');
