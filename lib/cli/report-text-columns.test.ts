import { beforeAll, describe, expect, it } from 'vitest';
import { setGoldOfItemNamed } from '@/lib/server/review/gold';
import { cliActor } from '@/lib/server/system/system';
import { REPORTS, computeReport, reportKinds, reportOptionNames } from '@/lib/server/analytics/report';
import { type AnyTableSpec, type ReportName, REPORT_SPECS, columnsOf } from '@/lib/server/analytics/dto';
import { buildStudy, labels } from '@/test/analytics-fixtures';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import { REPORT_TEXT } from './report-text';

/*
 * Every column the dashboard shows is in the text of `concord report`: for every report of the registry, run on a
 * real study of its kind, each table's part of the text names every column that is not the CSV's only. A report
 * whose text leaves out a table, or a column of one, fails here.
 */
const { dir } = useTestDatabase();
const studies: Partial<Record<'pairwise' | 'rubric', number>> = {};

// A pairwise study with general and principle-level criteria, two models, three reviewers per item (the alternative
// annotator test needs three) and a judge that saw every item in both reply orders (position bias, calibration).
const CRITERIA = ['clarity', 'practice_task', 'overall'];
const CATALOG = [
  { id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' },
  { id: 'practice_task', name: 'Practice task', level: 'principle', principle: 'Practice', description: 'Which task fits?' },
];
const PAIRWISE_LABELS: Record<string, [string, string, string]> = {
  p1: ['WWW', 'WWT', 'WWW'],
  p2: ['WTL', 'WTL', 'TTL'],
  p3: ['LLL', 'LLW', 'LLL'],
  p4: ['TWW', 'TWW', 'TWL'],
  p5: ['LWT', 'LWT', 'WWT'],
  p6: ['WLL', 'WLW', 'WLL'],
  p7: ['TTW', 'TTW', 'TLW'],
  p8: ['LLT', 'LLT', 'LWT'],
};
const JUDGE: Record<string, [string, string]> = {
  p1: ['WWW', 'WWW'],
  p2: ['WTL', 'LTL'],
  p3: ['LLW', 'LLW'],
  p4: ['TWW', 'WWW'],
  p5: ['LWT', 'LWT'],
  p6: ['WLL', 'TLL'],
  p7: ['TTW', 'TTW'],
  p8: ['LLT', 'WLT'],
};

// A rubric study of two tutors, three reviewers per reply and a judge sampled twice (calibration).
const RUBRIC_GOLD: Record<string, string[]> = {
  a1: ['Yes', 'Yes', 'Yes'],
  a2: ['No', 'No', 'To some extent'],
  a3: ['To some extent', 'To some extent', 'Yes'],
  b1: ['Yes', 'Yes', 'No'],
  b2: ['Yes', 'Yes', 'Yes'],
  b3: ['No', 'No', 'No'],
};
const RUBRIC_JUDGE: Record<string, [string, string]> = {
  a1: ['Yes', 'Yes'],
  a2: ['Yes', 'No'],
  a3: ['To some extent', 'Yes'],
  b1: ['Yes', 'Yes'],
  b2: ['No', 'Yes'],
  b3: ['No', 'No'],
};

beforeAll(async () => {
  const lead = await makeUser('lead', 'lead');
  studies.pairwise = buildStudy(lead, dir, {
    name: 'Columns in the text',
    reviewersPerItem: 3,
    groundTruthRule: 'majority',
    catalog: CATALOG,
    items: Object.keys(PAIRWISE_LABELS).map((id, k) => ({ id, model: k % 2 ? 'm2' : 'm1' })),
    annotations: Object.entries(PAIRWISE_LABELS).flatMap(([item, byReviewer]) =>
      byReviewer.map((l, r) => ({ item, annotator: `r${r + 1}`, labels: labels(CRITERIA, l) })),
    ),
    judges: [
      {
        name: 'j1',
        lines: Object.entries(JUDGE).flatMap(([item, [first, second]]) => [
          { item, labels: labels(CRITERIA, first), swapped: false },
          { item, labels: labels(CRITERIA, second), swapped: true },
        ]),
      },
    ],
  });
  setGoldOfItemNamed(lead, studies.pairwise, { item: 'p1', labels: labels(CRITERIA, 'WWW') });
  const items = Object.keys(RUBRIC_GOLD);
  studies.rubric = buildRubricStudy(lead, {
    name: 'Columns in the text, rubric',
    catalog: [
      {
        id: 'mi',
        name: 'Notices the mistake',
        labels: ['No', 'To some extent', 'Yes'],
        desired: 'Yes',
        lenient: { 'To some extent': 'Yes' },
      },
    ],
    reviewersPerItem: 3,
    groundTruthRule: 'majority',
    items: items.map((id) => ({ id, source: id.startsWith('a') ? 'tutor-a' : 'tutor-b' })),
    annotations: items.flatMap((item) => RUBRIC_GOLD[item].map((l, r) => ({ item, annotator: `r${r + 1}`, labels: { mi: l } }))),
    judges: [
      {
        name: 'j1',
        lines: items.flatMap((item) => RUBRIC_JUDGE[item].map((l, s) => ({ item, labels: { mi: l }, sample: s + 1 }))),
      },
    ],
  });
}, 60_000);

/** The part of the text that prints one table: from its title line (with its rows counted) to the blank line after. */
function section(text: string, title: string, rows: number): string {
  const start = [`\n${title} (${rows})\n`, `\n${title} (${rows}, `].map((line) => text.indexOf(line)).find((at) => at >= 0) ?? -1;
  if (start < 0) return '';
  const end = text.indexOf('\n\n', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('the text of every report names every column its dashboard shows', () => {
  for (const name of Object.keys(REPORTS) as ReportName[]) {
    it(name, () => {
      const kind = reportKinds(name).find((k): k is 'pairwise' | 'rubric' => k === 'pairwise' || k === 'rubric')!;
      const takes = reportOptionNames(name);
      const report = computeReport(cliActor(), studies[kind]!, name, {
        ...(takes.includes('judge') ? { judge: 'j1' } : {}),
        ...(takes.includes('bootstrap') ? { bootstrap: '0' } : {}),
      });
      const text = (REPORT_TEXT[name] as (r: unknown) => string)(report);
      const tables = Object.values(REPORT_SPECS[name]) as AnyTableSpec<unknown, unknown>[];
      expect(tables.length).toBe(REPORTS[name].tables.length);
      for (const spec of tables) {
        const rows = spec.rows(report);
        const part = section(text, spec.title, rows.length);
        expect(part, `${name}: table "${spec.title}" is not in the text`).not.toBe('');
        // A column can only be seen on a row: every table of these studies has one, but for what the study cannot hold.
        if (!NO_ROWS[name]?.includes(spec.id)) expect(rows.length, `${name}: table "${spec.title}" has no row`).toBeGreaterThan(0);
        else expect(rows, `${name}: table "${spec.title}" has rows now; drop it from NO_ROWS`).toEqual([]);
        for (const c of columnsOf(spec, report))
          if (!c.csvOnly && rows.length) expect(part, `${name}: "${c.header}" of "${spec.title}"`).toContain(c.header);
      }
    });
  }
});

/** The tables these studies leave empty, and why. */
const NO_ROWS: Partial<Record<ReportName, string[]>> = {
  // The display order of a label is stored by the review screen; imported labels have none (the text says why).
  bias: ['human-position'],
};
