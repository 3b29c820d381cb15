import { describe, expect, it } from 'vitest';
import { CRITERION_STATS, PAIR_STATS, REPORT_SPECS, REPORT_TABLES, type AgreementReportDto } from '@/lib/server/analytics/dto';
import { parseCsv } from '@/test/csv';
import { rubricAgreement as rubric } from '@/test/report-fixtures';
import { reportCsv } from './report-csv';

/*
 * The agreement report of every kind is one set of column specs: the rubric CSV keeps its own headers where a
 * rubric names things its own way (dimension, labels) and has the same statistics, the macro table included.
 */

const statNames = (csv: string) => [csv, `${csv}_lower`, `${csv}_upper`, `${csv}_reason`];
const header = (lines: string[]) => parseCsv(lines.join(''))[0];

describe('the agreement report of every kind', () => {
  it('writes the rubric tables with the headers its readers know', () => {
    const criteria = parseCsv(reportCsv('rubric-agreement', 'criteria', rubric).join(''));
    expect(criteria[0]).toEqual([
      'dimension',
      'name',
      'labels',
      'items',
      'ratings',
      ...['percent_agreement', 'fleiss_kappa', 'krippendorff_alpha_nominal', 'krippendorff_alpha_ordinal'].flatMap(statNames),
    ]);
    expect(criteria[1].slice(0, 9)).toEqual(['mi', 'Notices the mistake', 'No;To some extent;Yes', '7', '15', '0.714', '0.35', '0.92', '']);
    expect(criteria[1].slice(9, 13)).toEqual(['', '', '', 'unequal_ratings']);
    const pairs = parseCsv(reportCsv('rubric-agreement', 'pairs', rubric).join(''));
    expect(pairs[0]).toEqual([
      'dimension',
      'annotator_1',
      'annotator_2',
      'items',
      ...['percent_agreement', 'cohen_kappa', 'cohen_kappa_linear', 'cohen_kappa_quadratic'].flatMap(statNames),
    ]);
    expect(pairs.slice(1).map((p) => p.slice(0, 4))).toEqual([['mi', 'r1', 'r2', '7']]);
  });

  it('offers the macro means of a rubric study as a CSV table too, as for a pairwise study', () => {
    expect(REPORT_TABLES['rubric-agreement']).toEqual(REPORT_TABLES.agreement);
    const macro = parseCsv(reportCsv('rubric-agreement', 'macro', rubric).join(''));
    expect(macro[0]).toEqual(['statistic', 'value', 'lower', 'upper', 'reason', 'criteria_included']);
    expect(macro.slice(1)).toEqual([
      ['percent_agreement', '0.714', '', '', 'not_computed', '1'],
      ['fleiss_kappa', '', '', '', 'no_defined_values', '0'],
      ['krippendorff_alpha_nominal', '0.5', '', '', 'not_computed', '1'],
      ['krippendorff_alpha_ordinal', '0.6', '', '', 'not_computed', '1'],
    ]);
  });

  it('gives both kinds the same statistics, from one list: a statistic added there is in every kind’s CSV', () => {
    const asPairwise = { ...rubric, labelSet: ['lose', 'tie', 'win'] } as unknown as AgreementReportDto;
    const stats = CRITERION_STATS.flatMap((s) => statNames(s.csv));
    const pairStats = PAIR_STATS.flatMap((s) => statNames(s.csv));
    for (const [report, dto] of [
      ['agreement', asPairwise],
      ['rubric-agreement', rubric],
    ] as const) {
      expect(header(reportCsv(report, 'criteria', dto as never)).slice(-stats.length)).toEqual(stats);
      expect(header(reportCsv(report, 'pairs', dto as never)).slice(-pairStats.length)).toEqual(pairStats);
      expect(Object.keys(REPORT_SPECS[report])).toEqual(['criteria', 'pairs', 'macro']);
    }
  });
});
