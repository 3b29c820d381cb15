/**
 * The annotator quality report's tables as column specs (the dashboard's Annotators tab, the CSV downloads and the
 * CLI's text read them): one row per annotator and unit (a pairwise criterion, a rubric dimension), and one row per
 * annotator for the time they spent.
 */
import type { AnnotatorDto, AnnotatorUnitDto, AnnotatorsReportDto } from './annotators';
import type { PlainColumnSpec, TableSpec } from './columns';
import { stat } from './columns';

type Plain<R> = PlainColumnSpec<R>;
const text = <R>(id: string, header: string, get: Plain<R>['get']): Plain<R> => ({ id, csv: id, header, value: 'text', get });
const count = <R>(id: string, header: string, get: Plain<R>['get']): Plain<R> => ({ id, csv: id, header, value: 'count', get });

/** A statistic of a nested record lifted onto the row under `as`, with its reason in the JSON form. */
function lift(from: object | null, key: string, as: string): Record<string, unknown> {
  if (!from) return { [as]: { value: null, reason: 'no_display_order' } };
  const f = from as Record<string, unknown>;
  return { [as]: f[key], ...(f[`${key}Reason`] !== undefined ? { [`${as}Reason`]: f[`${key}Reason`] } : {}) };
}

/** A row of the report with its rates lifted onto it, as the stat columns read them (either form of the report). */
export type AnnotatorRow = AnnotatorUnitDto & { intervals: Record<string, unknown> } & Record<string, unknown>;

/** A row of the per-annotator table: the gold accuracy lifted onto it, as the stat columns read it. */
export type AnnotatorTimeRow = AnnotatorDto & { goldRate: AnnotatorDto['gold']['rate']; intervals: Record<string, unknown> };

/** The rows of one unit, or of all units: rates lifted, in username order within each unit. */
export function annotatorRows(report: AnnotatorsReportDto, unit?: string): AnnotatorRow[] {
  return report.rows
    .filter((r) => unit === undefined || r.unit === unit)
    .map((r) => ({
      ...r,
      ...lift(r.accuracy, 'rate', 'accuracyRate'),
      ...lift(r.loo, 'rate', 'looRate'),
      ...lift(r.firstShown, 'rate', 'firstRate'),
      intervals: {
        accuracyRate: r.accuracy.interval,
        looRate: r.loo.interval,
        ...(r.firstShown ? { firstRate: r.firstShown.interval } : {}),
      },
    }));
}

export const annotatorsTables = {
  annotators: {
    id: 'annotators',
    title: 'Annotator quality',
    rows: (r) => annotatorRows(r),
    rowKey: (r) => `${r.unit}\u0000${r.username}`,
    columns: [
      text('unit', 'Criterion', (r) => r.unit),
      { ...text<AnnotatorRow>('annotator', 'Annotator', (r) => r.username), note: (r) => (r.excluded ? 'excluded' : null) },
      // Excluded annotators are marked beside their name on the screen and in the CLI's text; the CSV has a column.
      { ...text<AnnotatorRow>('excluded', 'Excluded', (r) => r.excluded), csvOnly: true },
      count('items', 'Items', (r) => r.items),
      { ...stat('accuracyRate', 'accuracy', 'Accuracy vs ground truth', 'percent'), id: 'accuracy', testId: 'accuracy' },
      count('accuracy_n', 'Accuracy items', (r) => r.accuracy.n),
      { ...stat('kappa', 'kappa', 'κ vs ground truth', 'ratio', { interval: false }), id: 'kappa' },
      { ...stat('looRate', 'loo_agreement', 'Agreement with the others', 'percent'), id: 'loo_agreement', testId: 'loo' },
      count('loo_n', 'Agreement items', (r) => r.loo.n),
      count('loo_tied', 'Others tied', (r) => r.loo.tied),
      { ...stat('dsCompetence', 'ds_competence', 'Dawid–Skene competence', 'ratio', { interval: false }), id: 'ds_competence' },
      {
        ...text<AnnotatorRow>('ds_confusion', 'Dawid–Skene confusion', (r) => (r.dsConfusion ? JSON.stringify(r.dsConfusion) : null)),
        csvOnly: true,
      },
      { ...stat('maceCompetence', 'mace_competence', 'MACE competence', 'ratio', { interval: false }), id: 'mace_competence' },
      { ...text<AnnotatorRow>('most_used_label', 'Most used label', (r) => r.mostUsedLabel), csvOnly: true },
      {
        ...stat('mostUsedShare', 'most_used_share', 'Share of the most used label', 'percent', { interval: false }),
        id: 'most_used_share',
      },
      count('longest_run', 'Longest run', (r) => r.longestRun),
      { ...stat('firstRate', 'first_shown_rate', 'First shown preferred', 'percent'), id: 'first_shown_rate' },
      count('first_shown_decisive', 'Decisive labels', (r) => r.firstShown?.decisive ?? null),
      count('disagreements', 'Disagreements', (r) => r.disagreementsTotal),
    ],
  } satisfies TableSpec<AnnotatorsReportDto, AnnotatorRow>,
  time: {
    id: 'time',
    title: 'Active time and gold items',
    rows: (r) => r.annotators.map((a) => ({ ...a, goldRate: a.gold.rate, intervals: { goldRate: a.gold.interval } })),
    rowKey: (r) => r.username,
    columns: [
      { ...text<AnnotatorDto>('annotator', 'Annotator', (r) => r.username), note: (r) => (r.excluded ? 'excluded' : null) },
      { ...text<AnnotatorDto>('excluded', 'Excluded', (r) => r.excluded), csvOnly: true },
      count('items', 'Items', (r) => r.items),
      count('median_active_seconds', 'Median active seconds per item', (r) => r.medianActiveSeconds),
      { ...stat('activeRatio', 'active_ratio', 'Against the study median', 'ratio', { interval: false }), id: 'active_ratio' },
      { ...stat('goldRate', 'gold_accuracy', 'Accuracy on gold', 'percent'), id: 'gold_accuracy' },
      count('gold_n', 'Gold answers', (r) => r.gold.n),
    ],
  } satisfies TableSpec<AnnotatorsReportDto, AnnotatorTimeRow>,
};
