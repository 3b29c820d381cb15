import type { ReportsFacet } from '../facets/reports';

/** A flow review has its own overview and exports; none of the judge and agreement dashboards reads it yet. */
export const flowReports: ReportsFacet = { byRole: {} };
