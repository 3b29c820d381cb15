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
  alignmentRate,
  contingencyTable,
  kmpLeaderboard,
  sumTables,
  wtlCounts,
} from '@/lib/stats';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { correctedLeaderboard, rankAgreement } from './corrected-leaderboard';
import type { IntervalDto, LeaderboardReportDto, LeaderboardRowDto, StatDto } from './dto';
import { type CriterionInfo, type Frame, Q, analysableStudy, bootstrapEstimates, bootstrapInfo, bootstrapSeed, loadFrame, loadGold, loadJudge, missing, noInterval, replicatesSchema, statDto, wilson } from './data';

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
    corrected: correctedLeaderboard(frame, gold, graders.filter((g) => g.judge), tiePolicy),
    rankAgreement: rankAgreement(rows, GROUND_TRUTH_GRADER, frame.criterionIds),
  };
}
