import type {
  RubricAlignmentReportDto,
  RubricAlignmentSummaryDto,
  RubricLeaderboardReportDto,
  RubricSummaryDto,
} from '@/lib/server/analytics/dto';
import { csvTable as table, statCells, statCols, valueCells, valueCols } from './report-cells';

/*
 * The tables of the rubric reports as CSV, in the conventions of lib/io/report-csv.ts: a statistic takes
 * `<name>`, `<name>_lower`, `<name>_upper`, `<name>_reason`; numbers at full precision; string cells neutralised.
 */

/** Every summary of an alignment report: scope (overall, dimension, tutor, tutor × dimension), scoring, the summary. */
export function alignmentSummaries(
  dto: RubricAlignmentReportDto,
): { model: string | null; criterion: string | null; scoring: 'strict' | 'lenient'; s: RubricSummaryDto }[] {
  const out: { model: string | null; criterion: string | null; scoring: 'strict' | 'lenient'; s: RubricSummaryDto }[] = [];
  const add = (model: string | null, criterion: string | null, s: RubricAlignmentSummaryDto) => {
    out.push({ model, criterion, scoring: 'strict', s });
    if (s.lenient) out.push({ model, criterion, scoring: 'lenient', s: s.lenient });
  };
  add(null, null, dto.overall);
  for (const c of dto.byCriterion) add(null, c.criterion, c);
  for (const m of dto.byModel) {
    add(m.model, null, m);
    for (const c of m.byCriterion) add(m.model, c.criterion, c);
  }
  return out;
}

export function rubricAlignmentTables(dto: RubricAlignmentReportDto) {
  const all = alignmentSummaries(dto);
  const scope = (x: { model: string | null; criterion: string | null; scoring: string }) => [
    dto.judge,
    dto.sample,
    x.model ?? 'all',
    x.criterion ?? 'all',
    x.scoring,
  ];
  const scopeCols = ['judge', 'sample', 'tutor', 'dimension', 'scoring'];
  return {
    summaries: () =>
      table(
        [...scopeCols, 'n', 'agree', ...statCols('accuracy'), ...valueCols('macro_f1'), ...statCols('cohen_kappa')],
        all.map((x) => [
          ...scope(x),
          x.s.n,
          x.s.agree,
          ...statCells(x.s.alignmentRate, x.s.intervals.alignmentRate),
          ...valueCells(x.s.macroF1),
          ...statCells(x.s.cohenKappa, x.s.intervals.cohenKappa),
        ]),
      ),
    classwise: () =>
      table(
        [...scopeCols, 'label', 'predicted', 'correct', ...statCols('classwise_accuracy'), 'support', ...statCols('recall')],
        all.flatMap((x) =>
          x.s.classwise.map((c) => [
            ...scope(x),
            c.label,
            c.predicted,
            c.correct,
            ...statCells(c.accuracy, c.intervals.accuracy),
            c.support,
            ...statCells(c.recall, c.intervals.recall),
          ]),
        ),
      ),
    confusion: () =>
      table(
        [...scopeCols, 'ground_truth', 'judge', 'count'],
        all.flatMap((x) => {
          const labels = x.s.labels;
          const m = x.s.confusion;
          if (!labels || !m) return [];
          return labels.flatMap((g, h) => labels.map((j, k) => [...scope(x), g, j, m[h][k]]));
        }),
      ),
  };
}

export function rubricLeaderboardTables(dto: RubricLeaderboardReportDto) {
  return {
    leaderboard: () =>
      table(
        ['tutor', 'grader', 'dimension', 'n', 'desired', ...statCols('share'), 'desired_lenient', ...statCols('share_lenient')],
        dto.rows.flatMap((r) =>
          dto.dimensions.map((d) => {
            const c = r.counts[d.id];
            const lenient = r.lenient[d.id];
            return [
              r.model,
              r.grader,
              d.id,
              c.n,
              c.desired,
              ...statCells(r.perCriterion[d.id], r.intervals.perCriterion[d.id]),
              c.desiredLenient ?? null,
              ...(lenient ? statCells(lenient, r.intervals.lenient[d.id]) : [null, null, null, 'not_applicable']),
            ];
          }),
        ),
      ),
    corrected: () =>
      table(
        [
          'judge',
          'tutor',
          'dimension',
          'scoring',
          'labelled',
          'unlabelled',
          'labelled_unjudged',
          ...statCols('human_only'),
          ...statCols('judge_only'),
          ...statCols('corrected'),
          ...valueCols('lambda'),
          ...valueCols('effective_labels'),
          'caution',
        ],
        dto.corrected.flatMap((run) =>
          run.cells.map((c) => [
            run.judge,
            c.model,
            c.criterion,
            c.lenient ? 'lenient' : 'strict',
            c.labelled,
            c.unlabelled,
            c.labelledUnjudged,
            ...statCells(c.humanOnly, c.intervals.humanOnly),
            ...statCells(c.judgeOnly, c.intervals.judgeOnly),
            ...statCells(c.corrected, c.intervals.corrected),
            ...valueCells(c.lambda),
            ...valueCells(c.effectiveLabels),
            c.caution ?? '',
          ]),
        ),
      ),
  };
}
