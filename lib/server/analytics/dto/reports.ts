/**
 * Every report by name and its tables: the list the route, the downloads, the CSV writer, the CLI and docs/cli.md
 * are held to. A report whose tables are written as column specs (`REPORT_SPECS`) takes its table names from them;
 * the server's registry (`lib/server/analytics/reports.ts`) adds each report's options and compute function.
 *
 * Pure data: the browser imports it through `@/lib/server/analytics/dto`.
 */
import { pairwiseAgreementScope, pairwiseCertifyScope, pairwiseHybridScope } from '@/lib/kinds/pairwise/report-columns';
import { rubricAgreementScope, rubricCertifyScope, rubricHybridScope } from '@/lib/kinds/rubric/report-columns';
import { agreementTables } from './agreement-tables';
import { annotatorsTables } from './annotators-tables';
import type { AnnotatorsReportDto } from './annotators';
import { pairwiseAlignmentTables, rubricAlignmentTables } from './alignment-tables';
import { pairwiseLeaderboardTables, rubricLeaderboardTables } from './leaderboard-tables';
import { pairwiseBiasTables, rubricBiasTables } from './bias-tables';
import { certifyTables } from './certify-tables';
import { hybridTables } from './hybrid-tables';
import { goldTables } from './gold-tables';
import type { GoldAccuracyDto } from '@/lib/server/review/dto';
import type { BiasReportDto, CertifyReportDto } from './certify';
import type { AgreementReportDto, AlignmentReportDto, HybridReportDto, LeaderboardReportDto } from './pairwise';
import type {
  RubricAgreementReportDto,
  RubricAlignmentReportDto,
  RubricBiasReportDto,
  RubricCertifyReportDto,
  RubricHybridReportDto,
  RubricLeaderboardReportDto,
} from './rubric';

/** The reports whose tables are column specs, read by the dashboard, the CSV writer and the CLI alike. */
export const REPORT_SPECS = {
  agreement: agreementTables(pairwiseAgreementScope),
  'rubric-agreement': agreementTables(rubricAgreementScope),
  hybrid: hybridTables(pairwiseHybridScope),
  'rubric-hybrid': hybridTables(rubricHybridScope),
  certify: certifyTables(pairwiseCertifyScope),
  'rubric-certify': certifyTables(rubricCertifyScope),
  bias: pairwiseBiasTables,
  'rubric-bias': rubricBiasTables,
  alignment: pairwiseAlignmentTables,
  'rubric-alignment': rubricAlignmentTables,
  leaderboard: pairwiseLeaderboardTables,
  'rubric-leaderboard': rubricLeaderboardTables,
  gold: goldTables,
  annotators: annotatorsTables,
};

const tableIds = <T extends object>(tables: T) => Object.keys(tables) as (keyof T & string)[];

export const CERTIFY_TABLES = tableIds(REPORT_SPECS.certify);
export const BIAS_TABLES = tableIds(REPORT_SPECS.bias);

/** Every report and the names of its tables, in the order the CSV downloads list them. */
export const REPORT_TABLES = {
  agreement: tableIds(REPORT_SPECS.agreement),
  alignment: tableIds(REPORT_SPECS.alignment),
  leaderboard: tableIds(REPORT_SPECS.leaderboard),
  hybrid: ['classes', 'plan', 'acceptance', 'strata'],
  certify: CERTIFY_TABLES,
  bias: BIAS_TABLES,
  'rubric-agreement': tableIds(REPORT_SPECS['rubric-agreement']),
  'rubric-alignment': tableIds(REPORT_SPECS['rubric-alignment']),
  'rubric-leaderboard': tableIds(REPORT_SPECS['rubric-leaderboard']),
  'rubric-hybrid': ['plans', 'classes', 'acceptance', 'strata'],
  'rubric-certify': CERTIFY_TABLES,
  'rubric-bias': tableIds(REPORT_SPECS['rubric-bias']),
  gold: tableIds(REPORT_SPECS.gold),
  annotators: tableIds(REPORT_SPECS.annotators),
} as const;

export type ReportName = keyof typeof REPORT_TABLES;
export type ReportTable<R extends ReportName = ReportName> = (typeof REPORT_TABLES)[R][number];

export type ReportDtos = {
  agreement: AgreementReportDto;
  alignment: AlignmentReportDto;
  leaderboard: LeaderboardReportDto;
  hybrid: HybridReportDto;
  certify: CertifyReportDto;
  bias: BiasReportDto;
  'rubric-agreement': RubricAgreementReportDto;
  'rubric-alignment': RubricAlignmentReportDto;
  'rubric-leaderboard': RubricLeaderboardReportDto;
  'rubric-hybrid': RubricHybridReportDto;
  'rubric-certify': RubricCertifyReportDto;
  'rubric-bias': RubricBiasReportDto;
  gold: GoldAccuracyDto;
  annotators: AnnotatorsReportDto;
};

/** The dashboards a kind of study may offer; its reports facet says which report serves each. */
export const REPORT_ROLES = ['agreement', 'alignment', 'leaderboard', 'hybrid', 'certify', 'bias', 'gold', 'annotators'] as const;
export type ReportRole = (typeof REPORT_ROLES)[number];

export const isReportName = (x: string): x is ReportName => Object.hasOwn(REPORT_TABLES, x);

export function isReportTable<R extends ReportName>(report: R, table: string): table is ReportTable<R> {
  return (REPORT_TABLES[report] as readonly string[]).includes(table);
}
