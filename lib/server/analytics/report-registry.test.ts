import { describe, expect, it } from 'vitest';
import { ALL_KINDS } from '@/lib/kinds/registry';
import { REPORT_ROLES, REPORT_TABLES, type ReportName } from './dto';
import { REPORTS, reportFor, reportKinds, requireReportFor } from './report';

/*
 * The registry and the kinds' reports facets agree: a kind names only registered reports, each for the dashboard
 * the report serves, and every registered report is some kind's.
 */

describe('the report registry', () => {
  it('gives each kind, for each dashboard it has, a report that serves that dashboard', () => {
    for (const kind of ALL_KINDS)
      for (const [role, name] of Object.entries(kind.reports.byRole)) {
        expect(REPORTS[name as ReportName], `${kind.id} ${role}`).toBeDefined();
        expect(REPORTS[name as ReportName].role, `${kind.id} ${role}`).toBe(role);
      }
  });

  it('serves every report to some kind, and its tables are the route’s', () => {
    for (const name of Object.keys(REPORTS) as ReportName[]) {
      expect(reportKinds(name).length, name).toBeGreaterThan(0);
      expect(REPORTS[name].tables).toEqual(REPORT_TABLES[name]);
    }
    expect(reportFor('rubric', 'agreement')).toBe('rubric-agreement');
    expect(reportFor('pairwise', 'agreement')).toBe('agreement');
  });

  it('refuses a kind without the report, naming the kinds that have it', () => {
    // Gold accuracy is every kind's (decision 0030); the other dashboards are not a flow review's.
    expect(reportFor('flow_review', 'gold')).toBe('gold');
    for (const role of REPORT_ROLES.filter((r) => r !== 'gold')) {
      expect(reportFor('flow_review', role)).toBeNull();
      expect(() => requireReportFor('flow_review', role)).toThrow(`The ${role} report is for pairwise and rubric studies.`);
    }
  });
});
