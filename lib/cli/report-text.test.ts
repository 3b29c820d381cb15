import { describe, expect, it } from 'vitest';
import { CRITERION_STATS, PAIR_STATS, type AgreementReportDto } from '@/lib/server/analytics/dto';
import { rubricAgreement } from '@/test/report-fixtures';
import { REPORT_TEXT } from './report-text';

/*
 * The text of `concord report agreement` is drawn from the same column specs as the dashboard and the CSV: every
 * statistic of the specs is printed for every kind, the macro means included.
 */

describe('report agreement as text', () => {
  const pairwise = { ...rubricAgreement, labelSet: ['lose', 'tie', 'win'] } as unknown as AgreementReportDto;

  it('prints every statistic of the agreement specs for both kinds, with its interval or its reason', () => {
    for (const text of [REPORT_TEXT['rubric-agreement'](rubricAgreement), REPORT_TEXT.agreement(pairwise)]) {
      for (const s of [...CRITERION_STATS, ...PAIR_STATS]) expect(text).toContain(`${s.header} `);
      expect(text).toContain('Percent agreement 71.4 % [35.0 %, 92.0 %]');
      expect(text).toContain('Fleiss’ κ — (unequal_ratings)');
      expect(text).toContain('r1 · r2: Shared items 7');
    }
  });

  it('prints the macro means of a rubric study, which it used to leave out', () => {
    const text = REPORT_TEXT['rubric-agreement'](rubricAgreement);
    expect(text).toContain('Macro average over the dimensions (4)');
    expect(text).toMatch(/Fleiss’ κ: Mean — \(no_defined_values\), dimensions included 0/);
    expect(text).toContain('Notices the mistake (No < To some extent < Yes): Items 7, Labels 15');
  });
});
