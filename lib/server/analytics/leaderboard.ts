import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import {
  type CriterionOutcome,
  type KmpLeaderboardRow,
  type Stat,
  TIE_POLICIES,
  type TiePolicy,
  type WtlCounts,
  type CertStat,
  alignmentRate,
  contingencyTable,
  rankCorrelation,
  kmpLeaderboard,
  sumTables,
  wtlCounts,
} from '@/lib/stats';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { correctedLeaderboard, rankAgreement } from './corrected-leaderboard';
import type { IntervalDto, LeaderboardReportDto, LeaderboardRowDto, StatDto } from './dto';
import {
  type CriterionInfo,
  type Frame,
  Q,
  analysableStudy,
  bootstrapEstimates,
  bootstrapInfo,
  bootstrapSeed,
  loadFrame,
  loadGold,
  loadJudge,
  missing,
  noInterval,
  replicatesSchema,
  statDto,
  wilson,
} from './data';

/** The grader name of the human ground truth (judge runs are named by their run name). */
export const GROUND_TRUTH_GRADER = 'ground truth';

const optionsSchema = z
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
 * The KMP-Bench leaderboard (Tables 1 and 3): per model and per grader — the human ground truth and every judge
 * run — the win rate of each criterion under the tie policy, General-Level Acc, Principle-Level Acc per principle,
 * Overall Acc and Overall Judgement, each with a 95 % interval (Wilson where the rate is a proportion, else an
 * item bootstrap within the model's items). Leads and admins only.
 */
export function leaderboardReport(
  actor: Actor,
  studyId: number,
  opts: { tiePolicy?: TiePolicy | string; bootstrap?: number | string } = {},
): LeaderboardReportDto {
  const db = getDb();
  const study = analysableStudy(db, actor, studyId);
  const { tiePolicy, bootstrap: replicates } = parseInput(optionsSchema, opts);
  const frame = loadFrame(db, study);
  const { n } = frame;
  const C = frame.criteria.length;
  const slicesOf = (codes: Int8Array) => Array.from({ length: C }, (_, c) => codes.subarray(c * n, (c + 1) * n));

  const gold = slicesOf(loadGold(db, frame).gold);
  const graders = [
    { name: GROUND_TRUTH_GRADER, slices: gold, judge: false },
    ...aq.judgeRuns(db, studyId).map((r) => ({ name: r.name, slices: slicesOf(loadJudge(db, frame, r.id).verdict), judge: true })),
  ];
  const itemsOfModel = frame.models.map(() => [] as number[]);
  for (let i = 0; i < n; i++) itemsOfModel[frame.modelOf[i]].push(i);
  const baseSeed = bootstrapSeed(study.seed, 'leaderboard');

  const rows: LeaderboardRowDto[] = [];
  frame.models.forEach((model, m) => {
    const modelItems = Int32Array.from(itemsOfModel[m]);
    for (const grader of graders) {
      const { row, counts } = leaderboardRow(frame, grader.slices, modelItems, tiePolicy);
      let labelled = 0;
      for (const i of modelItems) if (grader.slices.some((s) => s[i] >= 0)) labelled++;

      const drawnItems = new Int32Array(modelItems.length);
      // Resampling the model's own items keeps each row's sample size fixed, as a per-model table reads.
      const est = bootstrapEstimates(
        modelItems.length,
        (drawn) => {
          for (let t = 0; t < drawn.length; t++) drawnItems[t] = modelItems[drawn[t]];
          const r = leaderboardRow(frame, grader.slices, drawnItems, tiePolicy).row;
          const out: Record<string, Stat> = { general: r.generalLevelAcc, overall: r.overallAcc };
          for (const [id, s] of Object.entries(r.perCriterion)) out[`c.${id}`] = s;
          for (const [p, s] of Object.entries(r.principleLevelAcc)) out[`p.${p}`] = s;
          return out;
        },
        replicates,
        bootstrapSeed(baseSeed, `${model}\u0000${grader.name}`),
      );

      let alignment: { rate: StatDto; interval: IntervalDto } | null = null;
      if (grader.judge) {
        const a = alignmentRate(sumTables(gold.map((g, c) => contingencyTable(g, grader.slices[c], Q, modelItems))));
        alignment = { rate: statDto(a.rate), interval: wilson(a.agree, a.total) };
      }
      const overallIndex = frame.criteria.findIndex((c) => c.level === 'overall');
      const perCriterionInterval = (c: number, id: string) =>
        tiePolicy === 'half' ? est[`c.${id}`].interval : winRateWilson(counts[c], tiePolicy);
      rows.push({
        model,
        grader: grader.name,
        items: labelled,
        overallJudgement: statDto(row.overallJudgement),
        generalLevelAcc: statDto(row.generalLevelAcc),
        principleLevelAcc: Object.fromEntries(Object.entries(row.principleLevelAcc).map(([p, s]) => [p, statDto(s)])),
        overallAcc: statDto(row.overallAcc),
        perCriterion: Object.fromEntries(Object.entries(row.perCriterion).map(([id, s]) => [id, statDto(s)])),
        counts: Object.fromEntries(frame.criteria.map((c, k) => [c.id, { win: counts[k].win, tie: counts[k].tie, loss: counts[k].loss }])),
        alignmentRate: alignment?.rate ?? missing('not_applicable'),
        intervals: {
          overallJudgement: perCriterionInterval(overallIndex, frame.criteria[overallIndex].id),
          generalLevelAcc: est.general.interval,
          principleLevelAcc: Object.fromEntries(Object.keys(row.principleLevelAcc).map((p) => [p, est[`p.${p}`].interval])),
          overallAcc: est.overall.interval,
          perCriterion: Object.fromEntries(frame.criteria.map((c, k) => [c.id, perCriterionInterval(k, c.id)])),
          alignmentRate: alignment?.interval ?? noInterval('wilson', 'not_applicable'),
        },
      });
    }
  });
  return {
    studyId,
    tiePolicy,
    bootstrap: bootstrapInfo(replicates, baseSeed),
    models: frame.models,
    graders: graders.map((g) => g.name),
    rows,
    corrected: correctedLeaderboard(
      frame,
      gold,
      graders.filter((g) => g.judge),
      tiePolicy,
    ),
    rankAgreement: rankAgreement(
      rows,
      GROUND_TRUTH_GRADER,
      frame.criterionIds,
      rankIntervals(frame, graders, tiePolicy, replicates, bootstrapSeed(baseSeed, 'rank agreement')),
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
