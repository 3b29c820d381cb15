import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRITERION_STATS, PAIR_STATS, REPORT_SPECS, type AgreementReportDto, type TableSpec } from '@/lib/server/analytics/dto';
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

describe('report alignment as text', () => {
  // The reports as the alignment core gives them on the test study of `alignment.test.ts` and
  // `rubric-alignment-report.test.ts` (their snapshots hold the JSON and every CSV table).
  type Snapshot = { json: unknown };
  const snapshot = (kind: string) =>
    JSON.parse(fs.readFileSync(path.join(__dirname, `../server/analytics/__snapshots__/alignment-${kind}.json`), 'utf8')) as
      Snapshot | Snapshot[];

  it('prints every table of both kinds’ alignment specs, row for row, as the dashboard and the CSV show them', () => {
    // The pairwise snapshot is one report; the rubric one holds a report per judge sample.
    const cases = [
      ['alignment', (snapshot('pairwise') as Snapshot).json] as const,
      ...(snapshot('rubric') as Snapshot[]).map((s) => ['rubric-alignment', s.json] as const),
    ];
    expect(cases).toHaveLength(3);
    for (const [name, report] of cases) {
      const text = REPORT_TEXT[name](report as never);
      const specs = Object.values(REPORT_SPECS[name]) as TableSpec<unknown, unknown>[];
      expect(specs.length).toBeGreaterThan(2);
      for (const spec of specs) expect(text).toContain(`\n${spec.title} (${spec.rows(report).length})\n`);
      expect(text).toContain(`Judge "${(report as { judge: string }).judge}"`);
    }
  });
});
