import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import type { ReportJson } from '@/lib/query/analytics';
import { count, formatInterval, formatValue, policyText } from './format';
import { Th } from './th';
import { Value } from './value';

type Report = ReportJson['leaderboard'];

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
          <Table caption={`Judge-corrected win rates, run ${run.judge}`} captionHidden wrapperClassName="rounded-none border-0">
            <THead>
              <TR>
                <Th>Model · criterion</Th>
                <Th numeric>Labelled</Th>
                <Th numeric>Unlabelled</Th>
                <Th numeric>Judge-corrected</Th>
                <Th numeric>Human only</Th>
                <Th numeric>Judge alone</Th>
                <Th numeric>Worth (human labels)</Th>
              </TR>
            </THead>
            <TBody>
              {run.cells.map((c) => (
                <TR key={`${c.model}\u0000${c.criterion}`} data-testid="corrected-row">
                  <TD className="whitespace-nowrap">
                    <span className="font-medium">{c.model}</span>
                    <span className="block text-xs text-slate-500">{c.criterion}</span>
                  </TD>
                  <TD numeric>
                    {count(c.labelled)}
                    {c.labelledUnjudged ? (
                      <span className="block text-xs text-slate-500">+{count(c.labelledUnjudged)} unjudged</span>
                    ) : null}
                  </TD>
                  <TD numeric>{count(c.unlabelled)}</TD>
                  <TD numeric>
                    <CorrectedValue cell={c} testId="corrected-rate" />
                  </TD>
                  <TD numeric>
                    <Value value={c.humanOnly} reason={c.humanOnlyReason} kind="rate" interval={c.intervals.humanOnly} />
                  </TD>
                  <TD numeric>
                    <Value value={c.judgeOnly} reason={c.judgeOnlyReason} kind="rate" interval={c.intervals.judgeOnly} />
                  </TD>
                  <TD numeric>
                    {c.effectiveLabels === null
                      ? c.estimator === 'active_ipw'
                        ? 'active draw'
                        : 'n/a'
                      : count(Math.round(c.effectiveLabels))}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
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
      <Table caption="Rank agreement with the ground truth" captionHidden wrapperClassName="rounded-none border-0">
        <THead>
          <TR>
            <Th>Judge run</Th>
            <Th>Ranking by</Th>
            <Th numeric>Models</Th>
            <Th numeric>Kendall τ-b</Th>
            <Th numeric>p</Th>
            <Th numeric>Spearman ρ</Th>
            <Th numeric>p</Th>
          </TR>
        </THead>
        <TBody>
          {data.rankAgreement.map((r) => (
            <TR key={`${r.grader}\u0000${r.scope}`} data-testid="rank-row">
              <TD>{r.grader}</TD>
              <TD>{r.scope === 'overallAcc' ? 'Overall Acc' : r.scope}</TD>
              <TD numeric>{r.models}</TD>
              <TD numeric>
                <Value value={r.tauB} reason={r.tauBReason} kind="coef" interval={r.intervals.tauB} testId="rank-tau" />
                <span className="block text-xs text-slate-500">
                  {r.concordant} same / {r.discordant} opposite
                </span>
              </TD>
              <TD numeric>
                <Value value={r.tauBPValue} reason={r.tauBPValueReason} kind="coef" />
                {r.kendallMethod ? <span className="block text-xs text-slate-500">{r.kendallMethod}</span> : null}
              </TD>
              <TD numeric>
                <Value value={r.spearmanRho} reason={r.spearmanRhoReason} kind="coef" interval={r.intervals.spearmanRho} />
              </TD>
              <TD numeric>
                <Value value={r.spearmanPValue} reason={r.spearmanPValueReason} kind="coef" />
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </Card>
  );
}
