import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import type { ReportJson } from '@/lib/query/analytics';
import { type LeaderboardCorrectedRow, type LeaderboardReportDto, REPORT_SPECS } from '@/lib/server/analytics/dto';
import { count, formatInterval, formatValue, policyText } from './format';
import { StatTable, specColumns } from './stat-table';
import { Value } from './value';

type Report = ReportJson['leaderboard'];

const { corrected, ranks } = REPORT_SPECS.leaderboard;

/**
 * The corrected table's columns as the CSV and the CLI's text have them, but for the run (the heading of its table)
 * and the caution, which the corrected value says in words under itself.
 */
const correctedColumns = specColumns(corrected.columns.filter((c) => c.id !== 'judge' && c.id !== 'caution')).map((column) =>
  column.key === 'corrected'
    ? { ...column, cell: (c: LeaderboardCorrectedRow) => <CorrectedValue cell={c as unknown as CorrectedCell} testId="corrected-rate" /> }
    : column,
);

/**
 * The judge-corrected win rates (PPI++) of each judge run: its verdicts on every item, corrected by the items people
 * labelled, beside the human-only and judge-only estimates.
 */
export function CorrectedLeaderboard({ data, csv }: { data: Report; csv: ReactNode }) {
  return (
    <Card
      title="Judge-corrected win rates"
      description={<>Prediction-powered inference (PPI++). Tie policy: {policyText(data.tiePolicy)}.</>}
      actions={csv}
      padded={false}
      data-testid="corrected-card"
    >
      {data.corrected.map((run) => (
        <div key={run.judge} className="border-b border-slate-100 last:border-0">
          <h3 className="px-4 pt-3 text-sm font-semibold text-slate-900">Judge-corrected (run {run.judge})</h3>
          {run.cells.map((c) => (
            <p key={`${c.model}\u0000${c.criterion}`} className="px-4 pt-1 text-sm text-slate-600" data-testid="corrected-explanation">
              {c.corrected === null ? (
                <>
                  {c.model} · {c.criterion}: no corrected rate — {explain(c.correctedReason)}
                </>
              ) : c.estimator === 'active_ipw' && c.active ? (
                <span data-testid="corrected-estimator">
                  {c.model} · {c.criterion}: active labelling — the judge’s win rates, corrected by the{' '}
                  {count(c.active.drawnLabelled + c.active.labelledBefore)} labels people gave ({count(c.active.drawnLabelled)} of the{' '}
                  {count(c.active.drawn)} items drawn, each weighted by 1 / its probability, and {count(c.active.labelledBefore)} labelled
                  before the draw): {formatValue(c.corrected, 'rate')}, 95 % interval{' '}
                  {formatInterval(c.intervals.corrected, 'rate') ?? 'n/a'} (inverse-probability-weighted estimator).
                  {c.caution ? <> Caution: {cautionText(c.caution, c.active.pending)}.</> : null}
                </span>
              ) : (
                <>
                  {c.model} · {c.criterion}: the judge’s win rates, corrected by the {count(c.labelled)} items people labelled:{' '}
                  {formatValue(c.corrected, 'rate')}, 95 % interval {formatInterval(c.intervals.corrected, 'rate') ?? 'n/a'} — worth about{' '}
                  {c.effectiveLabels === null ? 'n/a' : count(Math.round(c.effectiveLabels))} human labels.
                  {c.caution ? <> Caution: {cautionText(c.caution)}.</> : null}
                </>
              )}
            </p>
          ))}
          <StatTable
            caption={`Judge-corrected win rates, run ${run.judge}`}
            wrapperClassName="rounded-none border-0"
            columns={correctedColumns}
            rows={corrected.rows(data as unknown as LeaderboardReportDto).filter((c) => c.judge === run.judge)}
            rowKey={corrected.rowKey}
            rowTestId="corrected-row"
          />
        </div>
      ))}
      <p className="px-4 py-2 text-xs text-slate-500">
        Where people’s labels came from an active draw (review queue in active order), the corrected rate is the
        inverse-probability-weighted estimate of that draw, and the human-only rate, biased towards the items the judge was unsure of, is
        not shown. Human only: the ground truth alone. Judge alone: the judge’s verdicts taken as if they were people’s (biased unless the
        judge is). The correction is valid when the labelled items are a random sample of the model’s items. “Worth” is how many human
        labels alone would give an interval this narrow.
      </p>
    </Card>
  );
}

type CorrectedCell = Report['corrected'][number]['cells'][number];

/** What a corrected interval's caution means, in words (null: none). */
export function cautionText(caution: CorrectedCell['caution'], pending = 0) {
  switch (caution) {
    case 'labels_pending':
      return `${count(pending)} drawn item(s) still without ground truth: the estimate is exact once people have labelled every drawn item`;
    case 'zero_width_interval':
      return 'zero-width interval: every labelled item and verdict alike, so it claims a certainty the labels cannot give — label more';
    case 'few_labelled_items':
      return 'fewer than 30 labelled items: the interval covers less often than 95 %';
    default:
      return null;
  }
}

/** The corrected value with its interval and, where it has one, its caution under it. */
export function CorrectedValue({ cell, testId }: { cell: CorrectedCell; testId?: string }) {
  const caution = cautionText(cell.caution);
  return (
    <>
      <Value
        value={cell.corrected}
        reason={cell.correctedReason}
        kind="rate"
        interval={cell.intervals.corrected}
        testId={testId}
        noZeroWidthFlag
      />
      {caution ? (
        <span className="block max-w-48 text-xs font-normal whitespace-normal text-amber-700" data-testid="corrected-caution">
          {caution}
        </span>
      ) : null}
    </>
  );
}

function explain(reason: string | undefined) {
  switch (reason) {
    case 'no_unlabelled_items':
      return 'every judged item already has ground truth, so the human-only rate is the answer.';
    case 'not_a_mean':
      return 'with ties excluded a win rate is a ratio, not a mean per item; switch to ties ½ or strict wins.';
    case 'no_labelled_items':
    case 'too_few_labelled_items':
      return 'people have labelled fewer than two of these items.';
    default:
      return reason?.replaceAll('_', ' ') ?? 'undefined';
  }
}

/** Whether each judge run orders the models as the ground truth does. */
export function RankAgreement({ data, csv }: { data: Report; csv: ReactNode }) {
  return (
    <Card
      title="Rank agreement"
      description="Does this judge rank the models as people do? Kendall’s τ-b and Spearman’s ρ between its ranking and the ground truth’s."
      actions={csv}
      padded={false}
      data-testid="rank-card"
    >
      <p className="px-4 pt-3 text-sm text-slate-600">
        1 = the same order, −1 = the reverse. Under each coefficient, its 95 % interval from the item bootstrap (the items redrawn and the
        models ranked again, once the intervals are computed): how far the agreement could move with other items. With few models the
        p-value only says whether there is any association. Pairs of models ordered the same way / oppositely are counted beside τ.
      </p>
      <StatTable
        caption="Rank agreement with the ground truth"
        wrapperClassName="rounded-none border-0"
        columns={specColumns(ranks.columns)}
        rows={ranks.rows(data as unknown as LeaderboardReportDto)}
        rowKey={ranks.rowKey}
        rowTestId="rank-row"
      />
    </Card>
  );
}
