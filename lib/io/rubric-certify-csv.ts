import type { DiscordanceDto, ReportTable, RubricBiasReportDto } from '@/lib/server/analytics/dto';
import { csvTable as table, statCols, valueCells, valueCols } from './report-cells';

/*
 * The tables of a rubric study's bias report as CSV (its certification's are column specs, shared with pairwise
 * studies: lib/server/analytics/dto/certify-tables.ts), with the conventions of lib/io/report-csv:
 * a statistic takes `<name>`, `<name>_lower`, `<name>_upper`, `<name>_reason`; a value without an interval
 * `<name>`, `<name>_reason`.
 */

const discordanceCells = (d: DiscordanceDto) => {
  const reason = d.rate.value === null ? d.rate.reason : d.interval.lower === null ? d.interval.reason : null;
  return [d.count, d.discordant, d.rate.value, d.interval.lower, d.interval.upper, reason, ...valueCells(d.pValue)];
};

export function rubricBiasTables(dto: RubricBiasReportDto): Record<ReportTable<'rubric-bias'>, () => string[]> {
  return {
    leniency: () =>
      table(
        [
          'judge',
          'sample',
          'lenient',
          'dimension',
          'n',
          'judge_desired',
          'ground_truth_desired',
          'judge_share',
          'ground_truth_share',
          'difference',
          'judge_only',
          'ground_truth_only',
          'judge_more_lenient',
          'discordant',
          ...statCols('judge_more_lenient_rate'),
          ...valueCols('mcnemar_exact_p_value'),
        ],
        dto.leniency.map((l) => [
          l.judge,
          dto.sample,
          dto.lenient,
          l.criterion,
          l.n,
          l.judgeDesired,
          l.groundTruthDesired,
          l.judgeShare.value,
          l.groundTruthShare.value,
          l.difference.value,
          l.judgeOnly,
          l.groundTruthOnly,
          ...discordanceCells(l.judgeMoreLenient),
        ]),
      ),
    length: () =>
      table(
        [
          'grader',
          'sample',
          'lenient',
          'dimension',
          'n',
          'desired',
          ...statCols('slope'),
          ...valueCols('slope_se'),
          ...valueCols('p_value'),
          'bin',
          'lower_edge',
          'upper_edge',
          'bin_n',
          'bin_desired',
          ...valueCols('desired_share'),
        ],
        dto.length.flatMap((l) =>
          (l.bins ?? []).map((b) => [
            l.grader,
            dto.sample,
            dto.lenient,
            l.criterion,
            l.n,
            l.desired,
            l.slope.value,
            l.intervals.slope.lower,
            l.intervals.slope.upper,
            l.slope.value === null ? l.slope.reason : l.intervals.slope.lower === null ? l.intervals.slope.reason : null,
            ...valueCells(l.slopeSe),
            ...valueCells(l.pValue),
            b.bin,
            b.lowerEdge,
            b.upperEdge,
            b.n,
            b.desired,
            ...valueCells(b.share),
          ]),
        ),
      ),
  };
}
