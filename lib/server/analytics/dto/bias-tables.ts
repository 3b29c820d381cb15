/**
 * The bias reports' tables as column specs. The two kinds measure different biases — a pairwise study the position
 * of a reply and its length, a rubric study a judge's leniency and the length of a reply — so each report has its own
 * tables; what they share (a logistic length slope over bins, a sign test) is written once here. The CSV names are
 * the downloads' headers from before the tables were data.
 */
import type { ColumnSpec, PlainColumnSpec, TableSpec } from './columns';
import { stat } from './columns';
import type { BiasReportDto, FirstPreferenceDto, JudgePositionDto, HumanPositionDto, LengthBiasDto, LengthBinDto } from './certify';
import type { LeniencyDto, RubricBiasReportDto, RubricLengthBiasDto, RubricLengthBinDto } from './rubric';
import type { CalibrationPartDto, JudgeCalibrationDto, ReliabilityBinDto } from './acceptance';

type Plain<R> = PlainColumnSpec<R>;
const text = <R>(id: string, header: string, get: Plain<R>['get']): Plain<R> => ({ id, csv: id, header, value: 'text', get });
const count = <R>(id: string, header: string, get: Plain<R>['get']): Plain<R> => ({ id, csv: id, header, value: 'count', get });
/** A value written bare (no reason column), from either form of the row. */
const bare = (v: unknown): number | null =>
  v !== null && typeof v === 'object' ? ((v as { value: number | null }).value ?? null) : ((v as number | null | undefined) ?? null);

/** A statistic of a nested record lifted onto the row under `as` (with its reason, in the JSON form), so a stat column reads it like the row's own. */
function lift(from: object, key: string, as: string): Record<string, unknown> {
  const f = from as Record<string, unknown>;
  return { [as]: f[key], ...(f[`${key}Reason`] !== undefined ? { [`${as}Reason`]: f[`${key}Reason`] } : {}) };
}
/** The row with the intervals its stat columns read (readStat looks in `row.intervals`). */
const withIntervals = <T extends object>(row: T, intervals: object): T & { intervals: Record<string, unknown> } => ({
  ...row,
  intervals: intervals as Record<string, unknown>,
});

/* ----- shared: the length slope and its bins, the preference of the reply shown first ----- */

/** The slope of a length-bias fit, its standard error and p-value (the fit's own record). */
const SLOPE_COLUMNS = [
  stat('slope', 'slope', 'Slope', 'ratio'),
  stat('slopeSe', 'slope_se', 'Standard error', 'ratio', { interval: false }),
  stat('pValue', 'p_value', 'p', 'p-value', { interval: false }),
] as const;

/** A length bin of a fit on the row under `bin`, its statistics lifted onto the row. */
type BinRow<L, B> = L & { bin: B; intervals: Record<string, unknown> };
const binRows = <L extends { bins: B[] | null; intervals: object }, B extends object>(fits: L[], stats: string[]): BinRow<L, B>[] =>
  fits.flatMap((l) =>
    (l.bins ?? []).map((b) =>
      withIntervals({ ...l, ...Object.assign({}, ...stats.map((s) => lift(b, s, `bin_${s}`))), bin: b }, l.intervals),
    ),
  );
const binStat = (key: string, csv: string, header: string) => ({
  ...stat(`bin_${key}`, csv, header, 'percent', { interval: false }),
  id: csv,
});

type FirstRow = { first: FirstPreferenceDto; intervals: Record<string, unknown> };
/** A position row with its preference of the reply shown first lifted onto it. */
const withFirst = <T extends { firstPreferred: FirstPreferenceDto }>(row: T): T & FirstRow =>
  withIntervals(
    {
      ...row,
      ...lift(row.firstPreferred, 'rate', 'firstRate'),
      ...lift(row.firstPreferred, 'pValue', 'firstPValue'),
      first: row.firstPreferred,
    },
    { firstRate: row.firstPreferred.interval },
  );
const firstColumns = <R extends FirstRow>(): ColumnSpec<R>[] => [
  count('first_preferred', 'First preferred', (r) => r.first.count),
  count('decisive', 'Decisive', (r) => r.first.decisive),
  { ...stat('firstRate', 'first_preferred_rate', 'First preferred rate', 'percent'), id: 'first_preferred_rate' },
  { ...stat('firstPValue', 'binomial_p_value', 'Binomial p', 'p-value', { interval: false }), id: 'binomial_p_value' },
];

/* ----- shared: the calibration of judges with several samples per item (STATS-3 part D), the same for every kind ----- */

const CALIBRATION_STATS = [
  stat('accuracy', 'accuracy', 'Accuracy', 'percent', { interval: false }),
  stat('meanConfidence', 'mean_confidence', 'Mean confidence', 'percent', { interval: false }),
  stat('brierTopLabel', 'brier_top_label', 'Brier (top label)', 'ratio', { interval: false }),
  stat('brierMulticlass', 'brier_multiclass', 'Brier (all labels)', 'ratio', { interval: false }),
  stat('ece', 'ece', 'ECE (equal width)', 'ratio', { interval: false }),
  stat('adaptiveEce', 'adaptive_ece', 'ECE (equal mass)', 'ratio', { interval: false }),
] as const;

/** A reliability bin on the row of its calibration, with its binning and its statistics lifted onto the row. */
type ReliabilityRow = JudgeCalibrationDto & { binning: 'equal_width' | 'equal_mass'; b: ReliabilityBinDto } & Record<string, unknown>;
const reliabilityRows = (c: JudgeCalibrationDto): ReliabilityRow[] =>
  (['equal_width', 'equal_mass'] as const).flatMap((binning) =>
    (binning === 'equal_width' ? c.reliability : c.adaptiveReliability).map((b) => ({
      ...c,
      ...lift(b, 'meanConfidence', 'bin_meanConfidence'),
      ...lift(b, 'accuracy', 'bin_accuracy'),
      ...lift(b, 'gap', 'bin_gap'),
      binning,
      b,
    })),
  );

/** The calibration table's columns: the dashboard draws them too. */
export const CALIBRATION_TABLE_COLUMNS: readonly ColumnSpec<JudgeCalibrationDto>[] = [
  text('judge', 'Judge', (c) => c.judge),
  text('criterion', 'Criterion', (c) => c.criterion),
  count('n', 'Items', (c) => c.n),
  count('samples_min', 'Fewest samples', (c) => c.samplesMin),
  count('samples_max', 'Most samples', (c) => c.samplesMax),
  ...CALIBRATION_STATS,
];

function calibrationTables<D extends CalibrationPartDto>() {
  return {
    calibration: {
      id: 'calibration',
      title: 'Calibration of judges with several samples',
      rows: (r) => r.calibration,
      columns: CALIBRATION_TABLE_COLUMNS,
      rowKey: (c) => `${c.judge}:${c.criterion}`,
    } satisfies TableSpec<D, JudgeCalibrationDto>,
    reliability: {
      id: 'reliability',
      title: 'Reliability diagram',
      rows: (r) => r.calibration.flatMap(reliabilityRows),
      columns: [
        text('judge', 'Judge', (c) => c.judge),
        text('criterion', 'Criterion', (c) => c.criterion),
        text('binning', 'Binning', (c) => c.binning),
        count('bin', 'Bin', (c) => c.b.bin),
        { id: 'lower', csv: 'lower', header: 'From', value: 'text', get: (c) => c.b.lower },
        { id: 'upper', csv: 'upper', header: 'To', value: 'text', get: (c) => c.b.upper },
        count('bin_n', 'Items in bin', (c) => c.b.n),
        binStat('meanConfidence', 'mean_confidence', 'Mean confidence'),
        binStat('accuracy', 'accuracy', 'Accuracy'),
        binStat('gap', 'gap', 'Accuracy − confidence'),
      ],
      rowKey: (c) => `${c.judge}:${c.criterion}:${c.binning}:${c.b.bin}`,
    } satisfies TableSpec<D, ReliabilityRow>,
  };
}

/* ----- pairwise ----- */

type JudgePositionRow = JudgePositionDto & FirstRow;
type HumanPositionRow = HumanPositionDto & FirstRow;
type PairwiseLengthRow = BinRow<LengthBiasDto, LengthBinDto>;

export const pairwiseBiasTables = {
  'judge-position': {
    id: 'judge-position',
    title: 'Judge position bias',
    rows: (r) => r.judgePosition.map(withFirst),
    columns: [
      text('judge', 'Judge', (j) => j.judge),
      text('criterion', 'Criterion', (j) => j.criterion),
      count('items', 'Items', (j) => j.items),
      count('items_both_orders', 'Items in both orders', (j) => j.itemsBothOrders),
      count('flips', 'Flips', (j) => j.flips),
      count('reversals', 'Reversals', (j) => j.reversals),
      { ...stat('flipRate', 'flip_rate', 'Flip rate', 'percent', { interval: false }) },
      { ...stat('reversalRate', 'reversal_rate', 'Reversal rate', 'percent', { interval: false }) },
      ...firstColumns<JudgePositionRow>(),
    ],
    rowKey: (j) => `${j.judge}:${j.criterion}`,
  } satisfies TableSpec<BiasReportDto, JudgePositionRow>,
  'human-position': {
    id: 'human-position',
    title: 'Reviewers preferring the reply shown first',
    rows: (r) => r.humanPosition.map(withFirst),
    columns: [
      text('criterion', 'Criterion', (h) => h.criterion),
      text('reviewer', 'Reviewer', (h) => h.reviewer ?? '(all reviewers)'),
      count('verdicts', 'Labels', (h) => h.verdicts),
      ...firstColumns<HumanPositionRow>(),
    ],
    rowKey: (h) => `${h.criterion}:${h.reviewer ?? ''}`,
  } satisfies TableSpec<BiasReportDto, HumanPositionRow>,
  length: {
    id: 'length',
    title: 'Length bias',
    rows: (r) => binRows<LengthBiasDto, LengthBinDto>(r.length, ['winShare', 'winShareTiesHalf', 'winShareExclTies']),
    columns: [
      text('grader', 'Grader', (l) => l.grader),
      text('criterion', 'Criterion', (l) => l.criterion),
      count('n', 'Items', (l) => l.n),
      count('n_decisive', 'Decisive items', (l) => l.nDecisive),
      ...SLOPE_COLUMNS,
      count('bin', 'Bin', (l) => l.bin.bin),
      count('lower_edge', 'From', (l) => l.bin.lowerEdge),
      count('upper_edge', 'To', (l) => l.bin.upperEdge),
      count('bin_n', 'Items in bin', (l) => l.bin.n),
      count('wins', 'Wins', (l) => l.bin.wins),
      count('ties', 'Ties', (l) => l.bin.ties),
      count('losses', 'Losses', (l) => l.bin.losses),
      binStat('winShare', 'win_share', 'Win share'),
      binStat('winShareTiesHalf', 'win_share_ties_half', 'Win share, ties ½'),
      binStat('winShareExclTies', 'win_share_excl_ties', 'Win share without ties'),
    ],
    rowKey: (l) => `${l.grader}:${l.criterion}:${l.bin.bin}`,
  } satisfies TableSpec<BiasReportDto, PairwiseLengthRow>,
  ...calibrationTables<BiasReportDto>(),
};

/* ----- rubric ----- */

type LeniencyRow = LeniencyDto & { intervals: Record<string, unknown> };
type RubricLengthRow = BinRow<RubricLengthBiasDto, RubricLengthBinDto>;

/** The judge sample read and whether labels were folded, on every row of a rubric bias table. */
const rubricHead = <R>(r: RubricBiasReportDto, rows: R[]) => rows.map((row) => ({ ...row, sample: r.sample, lenient: r.lenient }));

export const rubricBiasTables = {
  leniency: {
    id: 'leniency',
    title: 'Leniency',
    rows: (r) =>
      rubricHead(
        r,
        r.leniency.map((l) => {
          const d = l.judgeMoreLenient;
          return withIntervals(
            { ...l, ...lift(d, 'rate', 'moreLenientRate'), ...lift(d, 'pValue', 'moreLenientPValue') },
            { moreLenientRate: d.interval },
          );
        }),
      ),
    columns: [
      text('judge', 'Judge', (l) => l.judge),
      count('sample', 'Sample', (l) => l.sample),
      text('lenient', 'Lenient', (l) => l.lenient),
      text('dimension', 'Dimension', (l) => l.criterion),
      count('n', 'Replies', (l) => l.n),
      count('judge_desired', 'Desired by the judge', (l) => l.judgeDesired),
      count('ground_truth_desired', 'Desired by the ground truth', (l) => l.groundTruthDesired),
      count('judge_share', 'Judge share', (l) => bare(l.judgeShare)),
      count('ground_truth_share', 'Ground-truth share', (l) => bare(l.groundTruthShare)),
      count('difference', 'Difference', (l) => bare(l.difference)),
      count('judge_only', 'Only the judge', (l) => l.judgeOnly),
      count('ground_truth_only', 'Only the ground truth', (l) => l.groundTruthOnly),
      count('judge_more_lenient', 'Judge more lenient', (l) => l.judgeMoreLenient.count),
      count('discordant', 'Discordant', (l) => l.judgeMoreLenient.discordant),
      { ...stat('moreLenientRate', 'judge_more_lenient_rate', 'Judge more lenient, rate', 'percent'), id: 'judge_more_lenient_rate' },
      {
        ...stat('moreLenientPValue', 'mcnemar_exact_p_value', 'McNemar exact p', 'p-value', { interval: false }),
        id: 'mcnemar_exact_p_value',
      },
    ],
    rowKey: (l) => `${l.judge}:${l.criterion}`,
  } satisfies TableSpec<RubricBiasReportDto, LeniencyRow & { sample: number; lenient: boolean }>,
  length: {
    id: 'length',
    title: 'Length bias',
    rows: (r) => rubricHead(r, binRows<RubricLengthBiasDto, RubricLengthBinDto>(r.length, ['share'])),
    columns: [
      text('grader', 'Grader', (l) => l.grader),
      count('sample', 'Sample', (l) => l.sample),
      text('lenient', 'Lenient', (l) => l.lenient),
      text('dimension', 'Dimension', (l) => l.criterion),
      count('n', 'Replies', (l) => l.n),
      count('desired', 'Desired', (l) => l.desired),
      ...SLOPE_COLUMNS,
      count('bin', 'Bin', (l) => l.bin.bin),
      count('lower_edge', 'From', (l) => l.bin.lowerEdge),
      count('upper_edge', 'To', (l) => l.bin.upperEdge),
      count('bin_n', 'Replies in bin', (l) => l.bin.n),
      count('bin_desired', 'Desired in bin', (l) => l.bin.desired),
      binStat('share', 'desired_share', 'Desired share'),
    ],
    rowKey: (l) => `${l.grader}:${l.criterion}:${l.bin.bin}`,
  } satisfies TableSpec<RubricBiasReportDto, RubricLengthRow & { sample: number; lenient: boolean }>,
  ...calibrationTables<RubricBiasReportDto>(),
};
