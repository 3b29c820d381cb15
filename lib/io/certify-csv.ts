import type { CorrectedRunDto, RankAgreementDto } from '@/lib/server/analytics/dto';
import { csvTable as table, statCells, statCols, valueCells, valueCols } from './report-cells';

/*
 * The leaderboard's judge-corrected and rank-agreement tables as CSV (the certification's and the bias report's own
 * tables are column specs: lib/server/analytics/dto/certify-tables.ts, bias-tables.ts), with the conventions of lib/io/report-csv: a statistic takes
 * `<name>`, `<name>_lower`, `<name>_upper`, `<name>_reason`; a value without an interval `<name>`, `<name>_reason`.
 */

/** The leaderboard's `corrected` and `ranks` tables. */
export function certifyLeaderboardTables(dto: { tiePolicy: string; corrected: CorrectedRunDto[]; rankAgreement: RankAgreementDto[] }) {
  return {
    corrected: () =>
      table(
        [
          'tie_policy',
          'judge',
          'model',
          'criterion',
          'labelled',
          'unlabelled',
          'labelled_unjudged',
          ...statCols('corrected'),
          ...statCols('human_only'),
          ...statCols('judge_only'),
          ...valueCols('lambda'),
          ...valueCols('effective_labels'),
          'caution',
          'estimator',
          'estimator_labels',
          'labels_pending',
        ],
        dto.corrected.flatMap((run) =>
          run.cells.map((c) => [
            dto.tiePolicy,
            run.judge,
            c.model,
            c.criterion,
            c.labelled,
            c.unlabelled,
            c.labelledUnjudged,
            ...statCells(c.corrected, c.intervals.corrected),
            ...statCells(c.humanOnly, c.intervals.humanOnly),
            ...statCells(c.judgeOnly, c.intervals.judgeOnly),
            ...valueCells(c.lambda),
            ...valueCells(c.effectiveLabels),
            c.caution ?? '',
            // Which estimator gave `corrected` and on how many labels (issue 28): PPI++ on the labelled items, or
            // the active draw's weighted estimate on its drawn labels and those from before the draw.
            c.estimator ?? 'ppi++',
            c.active ? c.active.drawnLabelled + c.active.labelledBefore : c.labelled,
            c.active?.pending ?? null,
          ]),
        ),
      ),
    ranks: () =>
      table(
        [
          'tie_policy',
          'grader',
          'scope',
          'models',
          ...statCols('kendall_tau_b'),
          ...valueCols('kendall_p_value'),
          'kendall_method',
          ...statCols('spearman_rho'),
          ...valueCols('spearman_p_value'),
          'concordant',
          'discordant',
          'tied_ground_truth',
          'tied_grader',
          'tied_both',
        ],
        dto.rankAgreement.map((r) => [
          dto.tiePolicy,
          r.grader,
          r.scope,
          r.models,
          ...statCells(r.tauB, r.intervals.tauB),
          ...valueCells(r.tauBPValue),
          r.kendallMethod,
          ...statCells(r.spearmanRho, r.intervals.spearmanRho),
          ...valueCells(r.spearmanPValue),
          r.concordant,
          r.discordant,
          r.tiedGroundTruth,
          r.tiedGrader,
          r.tiedBoth,
        ]),
      ),
  };
}
