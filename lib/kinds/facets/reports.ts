import type { ReportName, ReportRole } from '@/lib/server/analytics/dto';

/**
 * The reports a kind of study offers: for each dashboard (agreement, alignment, …) the registered report that
 * serves it (`lib/server/analytics/reports.ts`). A dashboard the kind has no report for is absent: its page says
 * so, and `concord report <dashboard>` refuses the study. The report's tables, options and compute function are
 * the registry's; what the tables say about a kind's criteria is in `lib/kinds/<kind>/report-columns.ts`.
 */
export interface ReportsFacet {
  byRole: Partial<Record<ReportRole, ReportName>>;
}
