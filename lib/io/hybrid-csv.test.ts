import { describe, expect, it } from 'vitest';
import { PLAN_COLUMNS, REPORT_SPECS, REPORT_TABLES, csvNames, type HybridReportDto } from '@/lib/server/analytics/dto';
import { parseCsv } from '@/test/csv';
import { rubricHybrid } from '@/test/report-fixtures';
import { reportCsv } from './report-csv';

/*
 * The hybrid plan's tables are one set of column specs for both kinds: the pairwise CSV keeps its headers, the
 * rubric one gains the two plan columns it had left out (`unpredicted_labels`, `effort_saved_worst_case`).
 */

const csv = (lines: string[]) => parseCsv(lines.join(''));
const pairwise = { ...rubricHybrid, studyId: 5, criterion: 'overall' } as unknown as HybridReportDto;

const PLAN =
  'n,unjudged,acc_judge,acc_judge_lower,acc_judge_upper,acc_judge_reason,accepted_class,reviewed_classes,unpredicted_labels,reviewed,' +
  'acc_hybrid,acc_hybrid_lower,acc_hybrid_upper,acc_hybrid_reason,effort_saved,effort_saved_lower,effort_saved_upper,effort_saved_reason,' +
  'errors_to_fix,extra_reviews_expected,acc_expected_after,acc_expected_after_reason,effort_saved_expected_after,' +
  'effort_saved_expected_after_reason,extra_reviews_worst_case,effort_saved_worst_case,effort_saved_worst_case_reason';

describe('the hybrid plan of every kind', () => {
  it('keeps the pairwise headers', () => {
    expect(csv(reportCsv('hybrid', 'plan', pairwise))[0]).toEqual(['judge', 'criterion', 'target', ...PLAN.split(',')]);
    expect(csv(reportCsv('hybrid', 'classes', pairwise))[0]).toEqual([
      'judge',
      'criterion',
      'label',
      'predicted',
      'correct',
      'classwise_accuracy',
      'classwise_accuracy_lower',
      'classwise_accuracy_upper',
      'classwise_accuracy_reason',
      'decision',
    ]);
  });

  it('writes every column of a plan for a rubric study too, one row per plan', () => {
    const plans = csv(reportCsv('rubric-hybrid', 'plans', rubricHybrid));
    expect(plans[0]).toEqual(['judge', 'sample', 'target', 'tutor', 'dimension', 'scoring', ...PLAN.split(',')]);
    expect(plans.slice(1).map((r) => r.slice(3, 6))).toEqual([
      ['all', 'mi', 'strict'],
      ['t1', 'mi', 'strict'],
      ['all', 'leak', 'strict'],
    ]);
    const row = Object.fromEntries(plans[0].map((h, k) => [h, plans[1][k]]));
    expect(row).toMatchObject({ unpredicted_labels: 'To some extent', effort_saved_worst_case: '', effort_saved_worst_case_reason: 'no_items' });
    const classes = csv(reportCsv('rubric-hybrid', 'classes', rubricHybrid));
    expect(classes.slice(1, 3).map((r) => [r[3], r[6], r[7], r[8], r[9], r[10], r[13]])).toEqual([
      ['all', 'Yes', '6', '5', String(5 / 6), '0.44', 'accept'],
      ['all', 'No', '4', '2', '0.5', '0.15', 'review'],
    ]);
  });

  it('has the same plan statistics for both kinds, from one list', () => {
    const stats = PLAN_COLUMNS.flatMap((c) => csvNames(c));
    expect(csv(reportCsv('hybrid', 'plan', pairwise))[0].slice(-stats.length)).toEqual(stats);
    expect(csv(reportCsv('rubric-hybrid', 'plans', rubricHybrid))[0].slice(-stats.length)).toEqual(stats);
  });

  it('names the same tables in the specs as the report route knows', () => {
    for (const name of Object.keys(REPORT_SPECS) as (keyof typeof REPORT_SPECS)[])
      expect(Object.keys(REPORT_SPECS[name]).sort(), name).toEqual([...REPORT_TABLES[name]].sort());
  });
});
