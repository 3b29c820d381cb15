import 'server-only';
import * as z from 'zod';
import type { Db } from '@/db/client';
import {
  type CriterionOutcome,
  type KmpLeaderboardRow,
  type Stat,
  TIE_POLICIES,
  type TiePolicy,
  type WtlCounts,
  type CertStat,
  rankCorrelation,
  kmpLeaderboard,
  ppiMean,
  wtlCounts,
} from '@/lib/stats';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import * as aq from '@/db/queries/analytics';
import { activeValues, correctedLeaderboard, correctedTally, correctedValues } from './corrected-leaderboard';
import { type ActiveDesign, activeEstimate, latestDesign } from './corrected-leaderboard-active';
import type { IntervalDto, RubricCorrectedCellDto, RubricLeaderboardRowDto, StatDto } from './dto';
import {
  type CriterionInfo,
  type Frame,
  analysableStudy,
  bootstrapEstimates,
  bootstrapInfo,
  bootstrapSeed,
  loadFrame,
  loadGold,
  loadJudge,
  missing,
  replicatesSchema,
  statDto,
  wilson,
} from './data';
import type { Grader, LeaderboardInput, ScoredRow } from './leaderboard';
import {
  type RubricFrame,
  analysableRubricStudy,
  dimensionDtos,
  loadRubricFrame,
  loadRubricGold,
  loadRubricJudge,
  sampleSchema,
} from './dimension-frame';

/*
 * What the leaderboard core (`leaderboard.ts`) needs from a study, per kind: the study checked, the options parsed,
 * the codes loaded, and how the kind scores a grader on a model's items — a pairwise study by the KMP-Bench win
 * rates and accuracies (Tables 1 and 3) with item-bootstrap intervals, a rubric study by the share of each
 * dimension's desired label (MRBench's results tables) with Wilson intervals — and corrects a judge's scores.
 */

/** The options of either kind as they come from the registry or a caller; each part parses the ones it reads. */
export type LeaderboardOptions = { tiePolicy?: TiePolicy | string; bootstrap?: number | string; sample?: number | string };

type LeaderboardPart = (db: Db, actor: Actor, studyId: number, opts: LeaderboardOptions) => LeaderboardInput;

/* ----- pairwise: KMP-Bench ----- */

const pairwiseOptions = z
  .object({
    tiePolicy: z.enum(TIE_POLICIES, { error: 'The tie policy is half, non_win or exclude.' }).default('half'),
    bootstrap: replicatesSchema,
  })
  .default({ tiePolicy: 'half', bootstrap: 1000 });

function outcomeKind(c: CriterionInfo): Pick<CriterionOutcome, 'kind'> & { principle?: string } {
  if (c.level === 'principle' && c.principle) return { kind: 'principle', principle: c.principle };
  return { kind: c.level === 'overall' ? 'overall' : 'general' };
}

/** KMP-Bench row from per-criterion code slices restricted to `items` (indices into the study's items). */
function leaderboardRow(
  frame: Frame,
  slices: Int8Array[],
  items: ArrayLike<number>,
  policy: TiePolicy,
): { row: KmpLeaderboardRow; counts: WtlCounts[] } {
  const counts = slices.map((codes) => wtlCounts(codes, { items }));
  const outcomes = frame.criteria.map((c, k) => ({ id: c.id, counts: counts[k], ...outcomeKind(c) }) as CriterionOutcome);
  return { row: kmpLeaderboard(outcomes, { policy }), counts };
}

/** A win rate under a policy that makes it a plain proportion, with its Wilson interval. */
function winRateWilson(c: WtlCounts, policy: TiePolicy): IntervalDto {
  return policy === 'exclude' ? wilson(c.win, c.win + c.loss) : wilson(c.win, c.win + c.tie + c.loss);
}

/**
 * A pairwise study: per model and grader the win rate of each criterion under the tie policy, General-Level Acc,
 * Principle-Level Acc per principle, Overall Acc and Overall Judgement, each with a 95 % interval (Wilson where the
 * rate is a proportion, else an item bootstrap within the model's items).
 */
function pairwise(db: Db, actor: Actor, studyId: number, opts: LeaderboardOptions): LeaderboardInput {
  const study = analysableStudy(db, actor, studyId);
  const { tiePolicy, bootstrap: replicates } = parseInput(pairwiseOptions, { tiePolicy: opts.tiePolicy, bootstrap: opts.bootstrap });
  const frame = loadFrame(db, study);
  const { n } = frame;
  const C = frame.criteria.length;
  const slicesOf = (codes: Int8Array) => Array.from({ length: C }, (_, c) => codes.subarray(c * n, (c + 1) * n));
  // The slices of each grader's codes, by grader name (the core hands back the graders it made from these codes).
  const slices = new Map<string, Int8Array[]>();
  const slicesOfGrader = (g: Grader) => slices.get(g.name) ?? slices.set(g.name, slicesOf(g.codes)).get(g.name)!;
  const baseSeed = bootstrapSeed(study.seed, 'leaderboard');
  const overallIndex = frame.criteria.findIndex((c) => c.level === 'overall');

  return {
    head: { tiePolicy, bootstrap: bootstrapInfo(replicates, baseSeed) },
    n,
    models: frame.models,
    modelOf: frame.modelOf,
    criterionIds: frame.criterionIds,
    gold: loadGold(db, frame).gold,
    judgeCodes: (run) => loadJudge(db, frame, run.id).verdict,
    noAlignment: 'no_comparisons',
    score: (grader, m, modelItems): ScoredRow => {
      const gs = slicesOfGrader(grader);
      const { row, counts } = leaderboardRow(frame, gs, modelItems, tiePolicy);
      const drawnItems = new Int32Array(modelItems.length);
      // Resampling the model's own items keeps each row's sample size fixed, as a per-model table reads.
      const est = bootstrapEstimates(
        modelItems.length,
        (drawn) => {
          for (let t = 0; t < drawn.length; t++) drawnItems[t] = modelItems[drawn[t]];
          const r = leaderboardRow(frame, gs, drawnItems, tiePolicy).row;
          const out: Record<string, Stat> = { general: r.generalLevelAcc, overall: r.overallAcc };
          for (const [id, s] of Object.entries(r.perCriterion)) out[`c.${id}`] = s;
          for (const [p, s] of Object.entries(r.principleLevelAcc)) out[`p.${p}`] = s;
          return out;
        },
        replicates,
        bootstrapSeed(baseSeed, `${frame.models[m]}\u0000${grader.name}`),
      );
      const perCriterionInterval = (c: number, id: string) =>
        tiePolicy === 'half' ? est[`c.${id}`].interval : winRateWilson(counts[c], tiePolicy);
      return {
        stats: {
          overallJudgement: statDto(row.overallJudgement),
          generalLevelAcc: statDto(row.generalLevelAcc),
          principleLevelAcc: Object.fromEntries(Object.entries(row.principleLevelAcc).map(([p, s]) => [p, statDto(s)])),
          overallAcc: statDto(row.overallAcc),
          perCriterion: Object.fromEntries(Object.entries(row.perCriterion).map(([id, s]) => [id, statDto(s)])),
          counts: Object.fromEntries(
            frame.criteria.map((c, k) => [c.id, { win: counts[k].win, tie: counts[k].tie, loss: counts[k].loss }]),
          ),
        },
        intervals: {
          overallJudgement: perCriterionInterval(overallIndex, frame.criteria[overallIndex].id),
          generalLevelAcc: est.general.interval,
          principleLevelAcc: Object.fromEntries(Object.keys(row.principleLevelAcc).map((p) => [p, est[`p.${p}`].interval])),
          overallAcc: est.overall.interval,
          perCriterion: Object.fromEntries(frame.criteria.map((c, k) => [c.id, perCriterionInterval(k, c.id)])),
        },
      };
    },
    corrected: (gold, judges) =>
      correctedLeaderboard(
        frame,
        slicesOf(gold),
        judges.map((j) => ({ name: j.name, slices: slicesOfGrader(j) })),
        tiePolicy,
      ),
    rankIntervals: (graders) =>
      rankIntervals(
        frame,
        graders.map((g) => ({ name: g.name, slices: slicesOfGrader(g), judge: g.judge })),
        tiePolicy,
        replicates,
        bootstrapSeed(baseSeed, 'rank agreement'),
      ),
  };
}

/** A rank statistic as a bootstrap statistic (its reasons in the bootstrap's vocabulary). */
function rankStat(s: CertStat): Stat {
  if (s.value !== null) return { value: s.value };
  return { value: null, reason: s.reason === 'constant_input' ? 'no_variation' : 'no_items' };
}

/**
 * Item-bootstrap 95 % intervals of Kendall's τ-b and Spearman's ρ between each judge run's ranking of the models
 * and the ground truth's, per criterion and on Overall Acc: every replicate draws the study's items with
 * replacement (an item carries its ground truth and every judge's verdicts), scores each model on its drawn items
 * as the leaderboard does, and ranks. Keyed by `grader\0scope`; none without replicates.
 */
function rankIntervals(
  frame: Frame,
  graders: { name: string; slices: Int8Array[]; judge: boolean }[],
  policy: TiePolicy,
  replicates: number,
  seed: number,
): Map<string, { tauB: IntervalDto; spearmanRho: IntervalDto }> {
  const out = new Map<string, { tauB: IntervalDto; spearmanRho: IntervalDto }>();
  const judges = graders.filter((g) => g.judge);
  if (replicates === 0 || judges.length === 0 || frame.n === 0) return out;
  const M = frame.models.length;
  const scopes = [...frame.criterionIds, 'overallAcc'];
  const ofModel = Array.from({ length: M }, () => new Int32Array(0));
  const sizes = new Int32Array(M);
  const est = bootstrapEstimates(
    frame.n,
    (drawn) => {
      // The drawn items of each model, in one pass.
      sizes.fill(0);
      for (let t = 0; t < drawn.length; t++) sizes[frame.modelOf[drawn[t]]]++;
      for (let m = 0; m < M; m++) if (ofModel[m].length < sizes[m]) ofModel[m] = new Int32Array(Math.max(sizes[m], 2 * ofModel[m].length));
      sizes.fill(0);
      for (let t = 0; t < drawn.length; t++) {
        const m = frame.modelOf[drawn[t]];
        ofModel[m][sizes[m]++] = drawn[t];
      }
      // Each grader's score of each model per scope (null where undefined).
      const scores = graders.map((g) =>
        frame.models.map((_, m) => {
          const { row } = leaderboardRow(frame, g.slices, ofModel[m].subarray(0, sizes[m]), policy);
          return scopes.map((scope) => (scope === 'overallAcc' ? row.overallAcc.value : (row.perCriterion[scope]?.value ?? null)));
        }),
      );
      const stats: Record<string, Stat> = {};
      graders.forEach((g, k) => {
        if (!g.judge) return;
        scopes.forEach((scope, s) => {
          const a: number[] = [];
          const b: number[] = [];
          for (let m = 0; m < M; m++) {
            const x = scores[0][m][s];
            const y = scores[k][m][s];
            if (x === null || y === null) continue;
            a.push(x);
            b.push(y);
          }
          const r = rankCorrelation(a, b);
          stats[`${g.name}\u0000${scope}\u0000tau`] = rankStat(r.tauB);
          stats[`${g.name}\u0000${scope}\u0000rho`] = rankStat(r.spearmanRho);
        });
      });
      return stats;
    },
    replicates,
    seed,
  );
  for (const g of judges) {
    for (const scope of scopes) {
      const key = `${g.name}\u0000${scope}`;
      out.set(key, { tauB: est[`${key}\u0000tau`].interval, spearmanRho: est[`${key}\u0000rho`].interval });
    }
  }
  return out;
}

/* ----- rubric: the share of the desired label ----- */

/** Whether code l of dimension d is desired, strictly and after lenient folding. */
function desiredTables(frame: RubricFrame) {
  return frame.dimensions.map((dim, d) => {
    const q = dim.labels.length;
    const strict = new Uint8Array(q);
    const lenient = new Uint8Array(q);
    const want = frame.desired[d];
    strict[want] = 1;
    const map = frame.lenient[d];
    for (let l = 0; l < q; l++) lenient[l] = map ? (map[l] === map[want] ? 1 : 0) : strict[l];
    return { strict, lenient, hasLenient: map !== null };
  });
}

/**
 * A rubric study: per tutor and grader the share of each dimension's desired label with its Wilson interval,
 * strictly and after lenient folding; one judge sample at a time.
 */
function rubric(db: Db, actor: Actor, studyId: number, opts: LeaderboardOptions): LeaderboardInput {
  const study = analysableRubricStudy(db, actor, studyId);
  const { sample } = parseInput(z.object({ sample: sampleSchema }), { sample: opts.sample });
  const frame = loadRubricFrame(db, study);
  const { n, D } = frame;
  const desired = desiredTables(frame);
  return {
    head: { kind: 'rubric', sample, dimensions: dimensionDtos(frame) },
    n,
    models: frame.tutors,
    modelOf: frame.tutorOf,
    criterionIds: frame.dimensions.map((d) => d.id),
    gold: loadRubricGold(db, frame).gold,
    judgeCodes: (run) => loadRubricJudge(db, frame, run, sample, true),
    noAlignment: 'no_items',
    score: (grader, _m, items): ScoredRow => {
      const perCriterion: Record<string, StatDto> = {};
      const lenient: Record<string, StatDto> = {};
      const counts: RubricLeaderboardRowDto['counts'] = {};
      const intervals: Omit<RubricLeaderboardRowDto['intervals'], 'alignmentRate'> = { perCriterion: {}, lenient: {} };
      frame.dimensions.forEach((dim, d) => {
        let m = 0;
        let hit = 0;
        let hitLenient = 0;
        for (const i of items) {
          const c = grader.codes[d * n + i];
          if (c < 0) continue;
          m++;
          hit += desired[d].strict[c];
          hitLenient += desired[d].lenient[c];
        }
        perCriterion[dim.id] = m ? { value: hit / m } : missing('no_items');
        intervals.perCriterion[dim.id] = wilson(hit, m);
        counts[dim.id] = { n: m, desired: hit };
        if (desired[d].hasLenient) {
          lenient[dim.id] = m ? { value: hitLenient / m } : missing('no_items');
          intervals.lenient[dim.id] = wilson(hitLenient, m);
          counts[dim.id].desiredLenient = hitLenient;
        }
      });
      return { stats: { perCriterion, lenient, counts }, intervals };
    },
    corrected: (gold, judges) => {
      const designs = rubricDesigns(db, frame, judges);
      return judges.map((g) => ({ judge: g.name, cells: cellsOf(frame, gold, g.codes, desired, D, designs.get(g.name)) }));
    },
  };
}

/** The latest active draw of each judge run on each dimension, keyed by run name then dimension index. */
function rubricDesigns(db: Db, frame: RubricFrame, judges: readonly Grader[]): Map<string, Map<number, ActiveDesign>> {
  const ids = new Map(aq.judgeRuns(db, frame.study.id).map((r) => [r.name, r.id]));
  const out = new Map<string, Map<number, ActiveDesign>>();
  for (const j of judges) {
    const id = ids.get(j.name);
    if (id === undefined) continue;
    const byDimension = new Map<number, ActiveDesign>();
    frame.dimensions.forEach((dim, d) => {
      const design = latestDesign(db, frame.study.id, frame.items, id, dim.id);
      if (design) byDimension.set(d, design);
    });
    out.set(j.name, byDimension);
  }
  return out;
}

/**
 * The judge-corrected shares (PPI++) of one run's verdicts against a ground truth, per tutor × dimension and scoring
 * (strict, then lenient where there is a map), beside the human-only and judge-only estimates: what the leaderboard
 * reports, callable with a ground truth of one's own (e.g. part of it hidden). Valid when the replies with ground
 * truth are a random sample of the tutor's replies.
 */
export const correctedShares = (frame: RubricFrame, gold: Int8Array, verdict: Int8Array) =>
  cellsOf(frame, gold, verdict, desiredTables(frame), frame.D);

function cellsOf(
  frame: RubricFrame,
  gold: Int8Array,
  verdict: Int8Array,
  desired: ReturnType<typeof desiredTables>,
  D: number,
  designs: ReadonlyMap<number, ActiveDesign> = new Map(),
): RubricCorrectedCellDto[] {
  const { n, tutorOf } = frame;
  const itemsOf = frame.tutors.map(() => [] as number[]);
  for (let i = 0; i < n; i++) itemsOf[tutorOf[i]].push(i);
  const cells: RubricCorrectedCellDto[] = [];
  for (let d = 0; d < D; d++) {
    const g = gold.subarray(d * n, (d + 1) * n);
    const v = verdict.subarray(d * n, (d + 1) * n);
    for (const isLenient of desired[d].hasLenient ? [false, true] : [false]) {
      const table = isLenient ? desired[d].lenient : desired[d].strict;
      frame.tutors.forEach((model, t) => {
        const c = correctedTally(itemsOf[t], g, v);
        if (c.y.length + c.yhatU.length + c.labelledUnjudged === 0) return;
        const y = c.y.map((x) => table[x]);
        const r = ppiMean(
          y,
          c.yhat.map((x) => table[x]),
          c.yhatU.map((x) => table[x]),
        );
        const base = {
          model,
          criterion: frame.dimensions[d].id,
          lenient: isLenient,
          labelled: y.length,
          unlabelled: c.yhatU.length,
          labelledUnjudged: c.labelledUnjudged,
        };
        const design = designs.get(d);
        // Under an active draw of this run on the dimension: the weighted estimate of the same share (decision 0045).
        const share =
          design &&
          activeEstimate(
            c.judged,
            c.judged.map((i) => table[v[i]]),
            (i) => (g[i] >= 0 ? table[g[i]] : null),
            design,
          );
        cells.push(
          share ? { ...base, ...activeValues(correctedValues(r, y.length), share) } : { ...base, ...correctedValues(r, y.length) },
        );
      });
    }
  }
  return cells;
}

/** The leaderboard's kind parts, by kind id: the one place the core looks a kind up. */
export const LEADERBOARD_BY_KIND = { pairwise, rubric } satisfies Record<string, LeaderboardPart>;
export type LeaderboardKind = keyof typeof LEADERBOARD_BY_KIND;
