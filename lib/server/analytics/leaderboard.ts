import 'server-only';
import { getDb } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import type { Actor } from '../actor';
import { rankAgreement } from './corrected-leaderboard';
import { missing, noInterval, wilson } from './data';
import type {
  CorrectedRunDto,
  IntervalDto,
  LeaderboardReportDto,
  Reason,
  RubricCorrectedCellDto,
  RubricLeaderboardReportDto,
  StatDto,
} from './dto';
import { LEADERBOARD_BY_KIND, type LeaderboardKind, type LeaderboardOptions } from './leaderboard-by-kind';

/** The grader name of the human ground truth (judge runs are named by their run name). */
export const GROUND_TRUTH_GRADER = 'ground truth';

/** A grader of the leaderboard: the ground truth or a judge run, its codes criterion-major (`codes[c·n + i]`, −1: none). */
export type Grader = { name: string; codes: Int8Array; judge: boolean };

/** A row's statistics as a kind scores them: the fields before `alignmentRate`, and their intervals. */
export type ScoredRow = {
  stats: { perCriterion: Record<string, StatDto>; overallAcc?: StatDto } & Record<string, unknown>;
  intervals: Record<string, unknown>;
};

/**
 * What a kind of study hands the core (`leaderboard-by-kind.ts`), kind-neutral: the items' models (tutors), the
 * criteria (dimensions), the ground truth's and every judge run's codes, and how the kind scores a grader on a model.
 */
export type LeaderboardInput = {
  /** The fields the kind's report carries after `studyId`, in the JSON's order (its options, its catalog). */
  head: Record<string, unknown>;
  n: number;
  models: string[];
  modelOf: ArrayLike<number>;
  criterionIds: string[];
  gold: Int8Array;
  /** A judge run's codes, laid out as the ground truth's. */
  judgeCodes: (run: { id: number; name: string }) => Int8Array;
  /** A grader's statistics on one model's items (study item indices, in order). */
  score: (grader: Grader, model: number, items: Int32Array) => ScoredRow;
  /** Why a judge's alignment is undefined where it shares no labelled item with the ground truth (see below). */
  noAlignment: Reason;
  corrected: (gold: Int8Array, judges: Grader[]) => CorrectedRunDto[] | { judge: string; cells: RubricCorrectedCellDto[] }[];
  /** Bootstrap intervals of the rank agreement, keyed `grader\0scope` (none: not computed). */
  rankIntervals?: (graders: Grader[]) => ReadonlyMap<string, { tauB: IntervalDto; spearmanRho: IntervalDto }>;
};

/**
 * The leaderboard, for every kind of study: per model (a rubric study's tutor) and per grader — the human ground
 * truth, then every judge run by name — the kind's scores of the model with their 95 % intervals (a pairwise study's
 * KMP-Bench win rates and accuracies, a rubric study's share of each dimension's desired label), the items the
 * grader labelled and a judge's alignment with the ground truth on them (Wilson); per judge run the scores
 * corrected by the ground truth (PPI++, or the active estimate under a draw), and whether each judge orders the
 * models as the ground truth does. What differs by kind is its part in `leaderboard-by-kind.ts`; `kind` is the
 * registry's (each kind's report name stays). Leads and admins only.
 */
// The pairwise signature last: it is the one `ReturnType<typeof leaderboardReport>` reads.
export function leaderboardReport(actor: Actor, studyId: number, opts: LeaderboardOptions, kind: 'rubric'): RubricLeaderboardReportDto;
export function leaderboardReport(actor: Actor, studyId: number, opts?: LeaderboardOptions, kind?: 'pairwise'): LeaderboardReportDto;
export function leaderboardReport(
  actor: Actor,
  studyId: number,
  opts: LeaderboardOptions = {},
  kind: LeaderboardKind = 'pairwise',
): LeaderboardReportDto | RubricLeaderboardReportDto {
  const db = getDb();
  const input = LEADERBOARD_BY_KIND[kind](db, actor, studyId, opts);
  const { n, models, modelOf, gold, criterionIds } = input;
  const C = criterionIds.length;
  const graders: Grader[] = [
    { name: GROUND_TRUTH_GRADER, codes: gold, judge: false },
    ...aq.judgeRuns(db, studyId).map((r) => ({ name: r.name, codes: input.judgeCodes(r), judge: true })),
  ];
  const itemsOfModel = models.map(() => [] as number[]);
  for (let i = 0; i < n; i++) itemsOfModel[modelOf[i]].push(i);

  const rows = models.flatMap((model, m) => {
    const items = Int32Array.from(itemsOfModel[m]);
    return graders.map((g) => {
      // Items with a label from the grader on any criterion; a judge's agreements with the ground truth on them.
      let labelled = 0;
      let agree = 0;
      let both = 0;
      for (const i of items) {
        let any = false;
        for (let c = 0; c < C; c++) {
          const x = g.codes[c * n + i];
          if (x < 0) continue;
          any = true;
          const y = gold[c * n + i];
          if (g.judge && y >= 0) {
            both++;
            if (x === y) agree++;
          }
        }
        if (any) labelled++;
      }
      const { stats, intervals } = input.score(g, m, items);
      // Where a judge and the ground truth share no label the kinds have said it differently so far (pairwise: no
      // comparisons, rubric: no items); the kind names it.
      const alignmentRate: StatDto = !g.judge ? missing('not_applicable') : both ? { value: agree / both } : missing(input.noAlignment);
      return {
        model,
        grader: g.name,
        items: labelled,
        ...stats,
        alignmentRate,
        intervals: { ...intervals, alignmentRate: g.judge ? wilson(agree, both) : noInterval('wilson', 'not_applicable') },
      };
    });
  });

  // A kind without an overall score (rubric) has no Overall Acc to rank on.
  const scored = rows.map((r) => ({
    model: r.model,
    grader: r.grader,
    perCriterion: r.perCriterion,
    overallAcc: r.overallAcc ?? missing('not_applicable'),
  }));
  return {
    studyId,
    ...input.head,
    models,
    graders: graders.map((g) => g.name),
    rows,
    corrected: input.corrected(
      gold,
      graders.filter((g) => g.judge),
    ),
    rankAgreement: rankAgreement(scored, GROUND_TRUTH_GRADER, criterionIds, input.rankIntervals?.(graders)),
  } as unknown as LeaderboardReportDto | RubricLeaderboardReportDto;
}
