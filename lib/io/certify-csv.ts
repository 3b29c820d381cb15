import type { BiasReportDto, CorrectedRunDto, FirstPreferenceDto, RankAgreementDto, ReportTable } from '@/lib/server/analytics/dto';
import { csvTable as table, statCells, statCols, valueCells, valueCols } from './report-cells';

/*
 * The leaderboard's certification tables and the bias report's as CSV (the certification's own tables are column
 * specs: lib/server/analytics/dto/certify-tables.ts), with the conventions of lib/io/report-csv: a statistic takes
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


const firstCols = ['first_preferred', 'decisive', ...statCols('first_preferred_rate'), ...valueCols('binomial_p_value')];
const firstCells = (f: FirstPreferenceDto) => [f.count, f.decisive, ...statCells(f.rate, f.interval), ...valueCells(f.pValue)];

export function biasTables(dto: BiasReportDto): Record<ReportTable<'bias'>, () => string[]> {
  return {
    'judge-position': () =>
      table(
        [
          'judge',
          'criterion',
          'items',
          'items_both_orders',
          'flips',
          'reversals',
          ...valueCols('flip_rate'),
          ...valueCols('reversal_rate'),
          ...firstCols,
        ],
        dto.judgePosition.map((j) => [
          j.judge,
          j.criterion,
          j.items,
          j.itemsBothOrders,
          j.flips,
          j.reversals,
          ...valueCells(j.flipRate),
          ...valueCells(j.reversalRate),
          ...firstCells(j.firstPreferred),
        ]),
      ),
    'human-position': () =>
      table(
        ['criterion', 'reviewer', 'verdicts', ...firstCols],
        dto.humanPosition.map((h) => [h.criterion, h.reviewer ?? '(all reviewers)', h.verdicts, ...firstCells(h.firstPreferred)]),
      ),
    length: () =>
      table(
        [
          'grader',
          'criterion',
          'n',
          'n_decisive',
          ...statCols('slope'),
          ...valueCols('slope_se'),
          ...valueCols('p_value'),
          'bin',
          'lower_edge',
          'upper_edge',
          'bin_n',
          'wins',
          'ties',
          'losses',
          ...valueCols('win_share'),
          ...valueCols('win_share_ties_half'),
          ...valueCols('win_share_excl_ties'),
        ],
        dto.length.flatMap((l) =>
          (l.bins ?? []).map((b) => [
            l.grader,
            l.criterion,
            l.n,
            l.nDecisive,
            ...statCells(l.slope, l.intervals.slope),
            ...valueCells(l.slopeSe),
            ...valueCells(l.pValue),
            b.bin,
            b.lowerEdge,
            b.upperEdge,
            b.n,
            b.wins,
            b.ties,
            b.losses,
            ...valueCells(b.winShare),
            ...valueCells(b.winShareTiesHalf),
            ...valueCells(b.winShareExclTies),
          ]),
        ),
      ),
  };
}
