import type { ReportsFacet } from '../facets/reports';

/**
 * A flow review has its own overview and exports; of the dashboards only gold accuracy reads it (every kind's gold
 * report is one, decision 0030), none of the judge and agreement dashboards yet.
 */
export const flowReports: ReportsFacet = { byRole: { gold: 'gold' } };
