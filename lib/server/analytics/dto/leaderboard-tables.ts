/**
 * The leaderboard report's tables as column specs, so far a rubric study's: the share of each dimension's desired
 * label per tutor and grader, and the judge-corrected shares. The CSV names are the downloads' headers from before
 * the tables were data. (The pairwise leaderboard's tables, whose columns follow the principles of its catalog, are
 * still written by hand in lib/io/report-csv.ts and certify-csv.ts.)
 */
import type { TableSpec } from './columns';
import { stat } from './columns';
import type { StatDto } from './common';
import type { RubricCorrectedCellDto, RubricLeaderboardReportDto, RubricLeaderboardRowDto } from './rubric';

export type RubricShareRow = {
  row: RubricLeaderboardRowDto;
  dimension: string;
  counts: { n: number; desired: number; desiredLenient?: number };
  /** The shares `share` and `shareLenient` (with their reasons in the JSON form), read by their stat columns. */
  intervals: Record<string, unknown>;
} & Record<string, unknown>;
export type RubricCorrectedRow = RubricCorrectedCellDto & { judge: string };

/** A dimension's entry of a record of statistics (the DTO's StatDto, or the JSON's number with `<name>Reasons`). */
function entry(row: object, name: string, id: string, as: string): Record<string, unknown> {
  const r = row as Record<string, Record<string, unknown> | undefined>;
  const reason = r[`${name}Reasons`]?.[id];
  return { [as]: r[name]?.[id] ?? null, ...(reason !== undefined ? { [`${as}Reason`]: reason } : {}) };
}
const NOT_APPLICABLE: StatDto = { value: null, reason: 'not_applicable' };

export const rubricLeaderboardTables = {
  leaderboard: {
    id: 'leaderboard',
    title: 'Share of desired labels',
    rows: (dto) =>
      dto.rows.flatMap((r) =>
        dto.dimensions.map((d): RubricShareRow => {
          const lenient = r.lenient[d.id] !== undefined;
          return {
            row: r,
            dimension: d.id,
            counts: r.counts[d.id],
            ...entry(r, 'perCriterion', d.id, 'share'),
            ...(lenient ? entry(r, 'lenient', d.id, 'shareLenient') : { shareLenient: NOT_APPLICABLE }),
            intervals: { share: r.intervals.perCriterion[d.id], shareLenient: lenient ? r.intervals.lenient[d.id] : undefined },
          };
        }),
      ),
    columns: [
      { id: 'tutor', csv: 'tutor', header: 'Tutor', value: 'text', get: (s) => s.row.model },
      { id: 'grader', csv: 'grader', header: 'Grader', value: 'text', get: (s) => s.row.grader },
      { id: 'dimension', csv: 'dimension', header: 'Dimension', value: 'text', get: (s) => s.dimension },
      { id: 'n', csv: 'n', header: 'Labels', value: 'count', get: (s) => s.counts.n },
      { id: 'desired', csv: 'desired', header: 'Desired', value: 'count', get: (s) => s.counts.desired },
      stat('share', 'share', 'Share', 'percent'),
      {
        id: 'desired_lenient',
        csv: 'desired_lenient',
        header: 'Desired, lenient',
        value: 'count',
        get: (s) => s.counts.desiredLenient ?? null,
      },
      stat('shareLenient', 'share_lenient', 'Share, lenient', 'percent'),
    ],
    rowKey: (s) => `${s.row.model}:${s.row.grader}:${s.dimension}`,
  } satisfies TableSpec<RubricLeaderboardReportDto, RubricShareRow>,
  corrected: {
    id: 'corrected',
    title: 'Judge-corrected shares',
    rows: (dto) => dto.corrected.flatMap((run) => run.cells.map((c) => ({ ...c, judge: run.judge }))),
    columns: [
      { id: 'judge', csv: 'judge', header: 'Judge', value: 'text', get: (c) => c.judge },
      { id: 'tutor', csv: 'tutor', header: 'Tutor', value: 'text', get: (c) => c.model },
      { id: 'dimension', csv: 'dimension', header: 'Dimension', value: 'text', get: (c) => c.criterion },
      { id: 'scoring', csv: 'scoring', header: 'Scoring', value: 'text', get: (c) => (c.lenient ? 'lenient' : 'strict') },
      { id: 'labelled', csv: 'labelled', header: 'Labelled', value: 'count', get: (c) => c.labelled },
      { id: 'unlabelled', csv: 'unlabelled', header: 'Unlabelled', value: 'count', get: (c) => c.unlabelled },
      { id: 'labelled_unjudged', csv: 'labelled_unjudged', header: 'Labelled, unjudged', value: 'count', get: (c) => c.labelledUnjudged },
      stat('humanOnly', 'human_only', 'Ground truth alone', 'percent'),
      stat('judgeOnly', 'judge_only', 'Judge alone', 'percent'),
      stat('corrected', 'corrected', 'Corrected', 'percent'),
      stat('lambda', 'lambda', 'λ', 'ratio', { interval: false }),
      stat('effectiveLabels', 'effective_labels', 'Effective labels', 'ratio', { interval: false }),
      { id: 'caution', csv: 'caution', header: 'Caution', value: 'text', get: (c) => c.caution ?? '' },
      // What the corrected share rests on, as the pairwise download says it (decisions 0038, 0045): appended, CSV only.
      { id: 'estimator', csv: 'estimator', header: 'Estimator', value: 'text', csvOnly: true, get: (c) => c.estimator ?? 'ppi++' },
      {
        id: 'estimator_labels',
        csv: 'estimator_labels',
        header: 'Labels used',
        value: 'count',
        csvOnly: true,
        get: (c) => (c.active ? c.active.drawnLabelled + c.active.labelledBefore : c.labelled),
      },
      {
        id: 'labels_pending',
        csv: 'labels_pending',
        header: 'Labels pending',
        value: 'count',
        csvOnly: true,
        get: (c) => c.active?.pending ?? null,
      },
    ],
    rowKey: (c) => `${c.judge}:${c.model}:${c.criterion}:${c.lenient}`,
  } satisfies TableSpec<RubricLeaderboardReportDto, RubricCorrectedRow>,
};
