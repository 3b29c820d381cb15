import type { BiasReportDto, CertifyReportDto, CorrectedRunDto, FirstPreferenceDto, RankAgreementDto, ReportTable } from '@/lib/server/analytics/dto';
import { csvTable as table, statCells, statCols, valueCells, valueCols } from './report-cells';

/*
 * The tables of judge certification as CSV, with the conventions of lib/io/report-csv: a statistic takes
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


/**
 * The certification's tables; `extra` adds columns after `judge` on every row (a rubric study's sample and
 * lenient folding).
 */
export function certifyTables(
  dto: CertifyReportDto,
  extra: { columns: string[]; cells: unknown[] } = { columns: [], cells: [] },
): Record<ReportTable<'certify'>, () => string[]> {
  const withExtra = (columns: string[], rows: unknown[][]) =>
    table(
      [columns[0], ...extra.columns, ...columns.slice(1)],
      rows.map((r) => [r[0], ...extra.cells, ...r.slice(1)]),
    );
  return {
    decision: () =>
      withExtra(
        [
          'judge',
          'criterion',
          'target',
          'n',
          'agree',
          'unjudged',
          'alignment_rate',
          'decision',
          'decision_reason',
          'lower',
          'upper',
          'bounds_reason',
          'drift',
          ...valueCols('items_needed'),
        ],
        [
          [
            dto.judge,
            dto.criterion,
            dto.target,
            dto.n,
            dto.agree,
            dto.unjudged,
            dto.alignmentRate.value,
            dto.decision,
            dto.decisionReason ?? null,
            dto.bounds.lower,
            dto.bounds.upper,
            dto.bounds.reason ?? null,
            dto.drift,
            ...valueCells(dto.itemsNeeded),
          ],
        ],
      ),
    path: () =>
      withExtra(
        ['judge', 'criterion', 't', 'item', 'settled_at', 'agree', 'lower', 'upper'],
        dto.path.map((p) => [dto.judge, dto.criterion, p.t, p.item, p.settledAt, p.agree, p.lower, p.upper]),
      ),
    'alt-test': () =>
      withExtra(
        [
          'judge',
          'criterion',
          'epsilon',
          'annotator',
          'items',
          'tested',
          ...valueCols('rho_judge'),
          ...valueCols('rho_human'),
          ...valueCols('t'),
          ...valueCols('p_value'),
          ...valueCols('p_adjusted_by'),
          'judge_wins',
          'winning_rate',
          'advantage_probability',
          'judge_can_replace',
        ],
        dto.altTest.criteria.flatMap((c) =>
          c.annotators.map((a) => [
            dto.judge,
            c.criterion,
            dto.altTest.epsilon,
            a.annotator,
            a.items,
            a.tested,
            ...valueCells(a.rhoJudge),
            ...valueCells(a.rhoHuman),
            ...valueCells(a.t),
            ...valueCells(a.pValue),
            ...valueCells(a.pAdjusted),
            a.judgeWins,
            c.winningRate.value,
            c.advantageProbability.value,
            c.judgeCanReplace,
          ]),
        ),
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
