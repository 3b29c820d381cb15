/**
 * The agreement report's tables, one definition for every kind of study: the statistics per criterion (a rubric's
 * dimension), per pair of reviewers and their macro means. What differs by kind — what a criterion is called and
 * the columns that describe it — is the kind's (`AgreementScope`, from `lib/kinds/<kind>/report-columns.ts`).
 *
 * Adding a statistic to the agreement report of every kind: add one entry to `CRITERION_STATS` or `PAIR_STATS`
 * below, then compute it in `agreementByCriterion` (lib/server/analytics/agreement.ts), which the DTO's type (derived
 * from these lists) holds to. The dashboard, the CSV and the CLI's text all read these lists.
 */
import type { TableSpec, ColumnSpec, PlainColumnSpec } from './columns';
import { stat } from './columns';
import type { AgreementCriterionDto, AgreementPairDto, AgreementReportDto } from './pairwise';

/** The part of a report both kinds' agreement share (the DTO, or its JSON). */
export type AgreementShape = Pick<AgreementReportDto, 'criteria' | 'macro'>;
/** A criterion's row; a rubric dimension's carries its labels in their order. */
export type AgreementCriterionRow = AgreementCriterionDto & { labels?: string[] };
export type AgreementPairRow = AgreementPairDto & { criterion: string; criterionName: string };
export type AgreementMacroRow = { statistic: string; header: string; value: unknown; valueReason?: unknown; intervals: { value: unknown }; included: number };

/** What a kind of study says about its criteria in the agreement report. */
export type AgreementScope = {
  /** The CSV column naming the criterion (`criterion`, `dimension`). */
  csv: string;
  /** How the screen names one criterion and many. */
  noun: [string, string];
  /** The columns that describe a criterion, between its id and its counts (the id is the first CSV column). */
  describe: readonly PlainColumnSpec<AgreementCriterionRow>[];
};

/**
 * The statistics over all reviewers of a criterion, in the CSV's order; the macro table has one row each. The DTO's
 * fields are derived from this list (`CriterionStatKey`): an entry added here is a field `agreementByCriterion` must
 * fill, or the build fails. Percent agreement is the mean over items of the share of agreeing pairs of labels
 * (Fleiss' P̄; with two raters, the share of items); Fleiss' κ is Gwet's form for unequal numbers of labels per
 * item (lib/stats/SPEC.md), so it is reported however many raters each item has.
 */
export const CRITERION_STATS = [
  stat('percentAgreement', 'percent_agreement', 'Percent agreement', 'percent'),
  stat('fleissKappa', 'fleiss_kappa', 'Fleiss’ κ', 'ratio'),
  stat('krippendorffAlphaNominal', 'krippendorff_alpha_nominal', 'α nominal', 'ratio'),
  stat('krippendorffAlphaOrdinal', 'krippendorff_alpha_ordinal', 'α ordinal', 'ratio'),
] as const;

/** The statistics of one pair of reviewers, in the CSV's order; the DTO's fields are derived as above (`PairStatKey`). */
export const PAIR_STATS = [
  stat('percentAgreement', 'percent_agreement', 'Percent agreement', 'percent'),
  { ...stat('cohenKappa', 'cohen_kappa', 'κ', 'ratio'), testId: 'pair-kappa' },
  stat('cohenKappaLinear', 'cohen_kappa_linear', 'κ linear', 'ratio'),
  stat('cohenKappaQuadratic', 'cohen_kappa_quadratic', 'κ quadratic', 'ratio'),
] as const;

/** The statistics of a criterion (and of the macro means), by the keys of `CRITERION_STATS`. */
export type CriterionStatKey = (typeof CRITERION_STATS)[number]['key'];
/** The statistics of a pair of reviewers, by the keys of `PAIR_STATS`. */
export type PairStatKey = (typeof PAIR_STATS)[number]['key'];

export type AgreementTables = {
  criteria: TableSpec<AgreementShape, AgreementCriterionRow>;
  pairs: TableSpec<AgreementShape, AgreementPairRow>;
  macro: TableSpec<AgreementShape, AgreementMacroRow>;
};

/** The agreement tables of a kind whose criteria are described by `scope`. */
export function agreementTables(scope: AgreementScope): AgreementTables {
  const criteriaColumns: ColumnSpec<AgreementCriterionRow>[] = [
    { id: 'criterion', csv: scope.csv, header: scope.noun[0], value: 'text', get: (c) => c.criterion, csvOnly: true },
    ...scope.describe,
    { id: 'items', csv: 'items', header: 'Items', value: 'count', get: (c) => c.items },
    { id: 'ratings', csv: 'ratings', header: 'Labels', value: 'count', get: (c) => c.ratings },
    ...CRITERION_STATS,
  ];
  const pairColumns: ColumnSpec<AgreementPairRow>[] = [
    { id: 'criterion', csv: scope.csv, header: scope.noun[0], value: 'text', get: (p) => p.criterion, csvOnly: true },
    { id: 'annotator_1', csv: 'annotator_1', header: 'Reviewer', value: 'text', get: (p) => p.annotators[0], csvOnly: true },
    { id: 'annotator_2', csv: 'annotator_2', header: 'Reviewer', value: 'text', get: (p) => p.annotators[1], csvOnly: true },
    { id: 'reviewers', csv: '', header: 'Reviewers', value: 'text', get: (p) => `${p.annotators[0]} · ${p.annotators[1]}`, screenOnly: true },
    { id: 'items', csv: 'items', header: 'Shared items', value: 'count', get: (p) => p.items },
    ...PAIR_STATS,
  ];
  const macroColumns: ColumnSpec<AgreementMacroRow>[] = [
    { id: 'statistic', csv: 'statistic', header: 'Statistic', value: 'text', get: (m) => m.statistic, csvOnly: true },
    { id: 'name', csv: '', header: 'Statistic', value: 'text', get: (m) => m.header, screenOnly: true },
    { id: 'value', key: 'value', csv: 'value', csvParts: ['value', 'lower', 'upper', 'reason'], header: 'Mean', value: 'ratio' },
    { id: 'included', csv: 'criteria_included', header: `${scope.noun[1]} included`, value: 'count', get: (m) => m.included },
  ];
  return {
    criteria: {
      id: 'criteria',
      title: `Agreement per ${scope.noun[0]}`,
      rows: (r) => r.criteria,
      columns: criteriaColumns,
      rowKey: (c) => c.criterion,
    },
    pairs: {
      id: 'pairs',
      title: 'Cohen’s κ per pair of reviewers',
      rows: (r) => r.criteria.flatMap((c) => c.pairs.map((p) => ({ ...p, criterion: c.criterion, criterionName: c.name }))),
      columns: pairColumns,
      rowKey: (p) => `${p.criterion}\u0000${p.annotators.join('\u0000')}`,
    },
    macro: {
      id: 'macro',
      title: `Macro average over the ${scope.noun[1]}`,
      rows: (r) => {
        const m = r.macro as unknown as Record<string, unknown> & { intervals: Record<string, unknown>; criteriaIncluded: Record<string, number> };
        return CRITERION_STATS.map((s) => ({
          statistic: s.csv,
          header: s.header,
          value: m[s.key],
          valueReason: m[`${s.key}Reason`],
          intervals: { value: m.intervals[s.key] },
          included: m.criteriaIncluded[s.key],
        }));
      },
      columns: macroColumns,
      rowKey: (m) => m.statistic,
    },
  };
}
