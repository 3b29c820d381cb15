'use client';

import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Stat } from '@/components/ui/stat';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import { type ReportJson, reportFilename, reportUrl } from '@/lib/query/analytics';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import { AcceptanceCard } from './acceptance-card';
import { DownloadLink } from './downloads';
import { LABEL_TEXT, count, formatInterval, formatValue, reasonText } from './format';
import type { PersonDto } from '@/lib/server/accounts/dto';
import { HybridQueueForm } from './hybrid-queue-form';
import { JudgeSelect } from './judge-select';
import { useOptionsInUrl, useReport } from './use-report';
import { Th } from './th';
import { Value } from './value';

type Report = ReportJson['hybrid'];
export type HybridCriterion = { id: string; name: string };

const DEFAULT_TARGET = 0.95;
const DEFAULT_LEVEL = 0.05;
const pct = (v: number | null, reason?: string) => (v === null ? `n/a (${reasonText(reason)})` : formatValue(v, 'rate'));

export function HybridDashboard({
  studyId,
  runs,
  criteria,
  initial,
  people,
  studyOpen,
}: {
  studyId: number;
  runs: JudgeRunDto[];
  criteria: HybridCriterion[];
  initial: Report;
  people: PersonDto[];
  studyOpen: boolean;
}) {
  const [judge, setJudge] = useState(initial.judge);
  const [criterion, setCriterion] = useState(initial.criterion);
  const [target, setTarget] = useState(initial.target);
  const [epsilon, setEpsilon] = useState(initial.acceptance.epsilon);
  const [delta, setDelta] = useState(initial.acceptance.delta);
  const { data, fetching, error, retry } = useReport(
    studyId,
    'hybrid',
    { judge, criterion, target, epsilon, delta },
    {
      params: {
        judge: initial.judge,
        criterion: initial.criterion,
        target: initial.target,
        epsilon: initial.acceptance.epsilon,
        delta: initial.acceptance.delta,
      },
      data: initial,
    },
  );
  useOptionsInUrl({
    judge,
    criterion: criterion === 'overall' ? undefined : criterion,
    target: target === DEFAULT_TARGET ? undefined : target,
    epsilon: epsilon === DEFAULT_LEVEL ? undefined : epsilon,
    delta: delta === DEFAULT_LEVEL ? undefined : delta,
  });
  const stale =
    data.judge !== judge ||
    data.criterion !== criterion ||
    data.target !== target ||
    data.acceptance.epsilon !== epsilon ||
    data.acceptance.delta !== delta;
  const params = {
    judge: data.judge,
    criterion: data.criterion,
    target: data.target,
    epsilon: data.acceptance.epsilon,
    delta: data.acceptance.delta,
  };
  const csv = (table: 'classes' | 'plan' | 'acceptance' | 'strata') => (
    <DownloadLink
      href={reportUrl(studyId, 'hybrid', params, { format: 'csv', table })}
      filename={reportFilename(studyId, 'hybrid', { judge: data.judge, criterion: data.criterion, table, format: 'csv' })}
    >
      CSV
    </DownloadLink>
  );
  const criterionName = criteria.find((c) => c.id === data.criterion)?.name ?? data.criterion;
  const accepted = data.acceptedClass;
  const reached = data.errorsToFix === 0;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-4">
          <JudgeSelect runs={runs} value={judge} onChange={setJudge} />
          <Select
            label="Criterion"
            value={criterion}
            onChange={(e) => setCriterion(e.target.value)}
            wrapperClassName="w-64"
            data-testid="criterion-select"
          >
            {criteria.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
          <TargetInput value={target} onCommit={setTarget} />
          {stale && fetching ? (
            <p role="status" className="pb-2 text-sm text-slate-600">
              Recomputing…
            </p>
          ) : null}
        </div>
        <DownloadLink
          href={reportUrl(studyId, 'hybrid', params)}
          filename={reportFilename(studyId, 'hybrid', { judge: data.judge, criterion: data.criterion, format: 'json' })}
        >
          Whole report (JSON)
        </DownloadLink>
      </div>

      {error ? (
        <p role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-900">
          {error}{' '}
          <button type="button" className="font-medium underline" onClick={retry}>
            Try again
          </button>
        </p>
      ) : null}

      <p className="max-w-3xl text-sm text-slate-600">
        Padó’s (2025) hybrid review: on a calibration sample — the {count(data.n)} items with both a ground-truth label and a verdict of{' '}
        <strong>{data.judge}</strong> on <strong>{criterionName}</strong> — measure how often each label the judge predicts is right. Keep
        the judge’s labels of the most reliable class, send every other prediction to people (a review is taken to return the ground truth),
        and count how many extra random checks of the kept labels it takes to reach the target accuracy.
        {data.unjudged ? ` ${count(data.unjudged)} ground-truth label(s) of this criterion have no verdict and are not in the sample.` : ''}
      </p>

      <div className={stale ? 'space-y-5 opacity-50' : 'space-y-5'} aria-busy={stale || undefined}>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="hybrid-summary">
          <Stat
            label="Judge alone"
            value={data.accJudge === null ? 'n/a' : formatValue(data.accJudge, 'rate')}
            sublabel={
              data.accJudge === null
                ? reasonText(data.accJudgeReason)
                : `accuracy · 95 % ${formatInterval(data.intervals.accJudge, 'rate')}`
            }
          />
          <Stat
            label="Hybrid (expected)"
            value={<span data-testid="acc-hybrid">{data.accHybrid === null ? 'n/a' : formatValue(data.accHybrid, 'rate')}</span>}
            sublabel={
              data.accHybrid === null
                ? reasonText(data.accHybridReason)
                : `accuracy · 95 % ${formatInterval(data.intervals.accHybrid, 'rate')}`
            }
          />
          <Stat
            label="Effort saved"
            value={data.effortSaved === null ? 'n/a' : formatValue(data.effortSaved, 'rate')}
            sublabel={
              data.effortSaved === null
                ? reasonText(data.effortSavedReason)
                : `items nobody reviews · 95 % ${formatInterval(data.intervals.effortSaved, 'rate')}`
            }
          />
          <Stat
            label="Sent to people"
            value={`${count(data.reviewed)} of ${count(data.n)}`}
            sublabel={data.reviewedClasses.length ? `every “${data.reviewedClasses.join('”, “')}” prediction` : 'none'}
          />
        </div>

        <Card
          title="Class-wise accuracy"
          description="Per label the judge predicted: how often ground truth agrees, and what the plan does with it."
          actions={csv('classes')}
          padded={false}
        >
          <Table
            caption="Class-wise accuracy and decision per predicted label"
            captionHidden
            wrapperClassName="rounded-none border-0"
            data-testid="classes-table"
          >
            <THead>
              <TR>
                <Th>Judge predicted</Th>
                <Th numeric>Predictions</Th>
                <Th numeric>Correct</Th>
                <Th numeric>Class-wise accuracy</Th>
                <Th>Decision</Th>
              </TR>
            </THead>
            <TBody>
              {data.classes.map((k) => (
                <TR key={k.label}>
                  <TD className="font-medium">{LABEL_TEXT[k.label] ?? k.label}</TD>
                  <TD numeric>{count(k.predicted)}</TD>
                  <TD numeric>{count(k.correct)}</TD>
                  <TD numeric>
                    <Value value={k.classwiseAccuracy} reason={k.classwiseAccuracyReason} kind="rate" interval={k.interval} />
                  </TD>
                  <TD>
                    {k.decision === 'accept' ? (
                      <Badge tone="success">Accept — keep the judge’s labels</Badge>
                    ) : (
                      <Badge tone="warning">Review — send to people</Badge>
                    )}
                  </TD>
                </TR>
              ))}
              {data.classes.length === 0 ? (
                <TR>
                  <TD colSpan={5} className="text-slate-500">
                    No item has both a ground-truth label and a verdict on this criterion: there is nothing to calibrate on.
                  </TD>
                </TR>
              ) : null}
            </TBody>
          </Table>
          {data.unpredictedLabels.length ? (
            <p className="px-4 py-2 text-xs text-slate-500">
              Never predicted (no decision to make): {data.unpredictedLabels.map((l) => LABEL_TEXT[l] ?? l).join(', ')}.
            </p>
          ) : null}
        </Card>

        <Card title={`Reaching ${formatValue(data.target, 'rate')}`} actions={csv('plan')}>
          {accepted === null ? (
            <p className="text-sm text-slate-600">No plan: the calibration sample is empty.</p>
          ) : reached ? (
            <p className="text-sm text-slate-700" data-testid="target-verdict">
              The plan reaches the target as it is: accepting the judge’s “{accepted}” labels and reviewing the rest gives{' '}
              {pct(data.accHybrid, data.accHybridReason)}, no extra reviews needed.
            </p>
          ) : (
            <>
              <p className="text-sm text-slate-700" data-testid="target-verdict">
                The plan gives {pct(data.accHybrid, data.accHybridReason)}, below the target: {count(data.errorsToFix)} error(s) among the
                accepted “{accepted}” labels must still be found. Reviewing randomly chosen accepted labels finds them after about{' '}
                <strong data-testid="extra-reviews">{count(data.extraReviewsExpected)}</strong> extra reviews.
              </p>
              <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-3">
                <div>
                  <dt className="text-xs tracking-wide text-slate-500 uppercase">Expected after those reviews</dt>
                  <dd className="tabular-nums">
                    accuracy {pct(data.accExpectedAfter, data.accExpectedAfterReason)} · effort saved{' '}
                    {pct(data.effortSavedExpectedAfter, data.effortSavedExpectedAfterReason)}
                  </dd>
                </div>
                <div>
                  <dt className="text-xs tracking-wide text-slate-500 uppercase">Worst case (errors found last)</dt>
                  <dd className="tabular-nums">
                    {count(data.extraReviewsWorstCase)} extra reviews · effort saved{' '}
                    {pct(data.effortSavedWorstCase, data.effortSavedWorstCaseReason)}
                  </dd>
                </div>
              </dl>
            </>
          )}
          <div id="hybrid-queue-slot" data-testid="hybrid-queue-slot">
            <HybridQueueForm
              studyId={studyId}
              judge={data.judge}
              criterion={data.criterion}
              target={data.target}
              people={people}
              studyOpen={studyOpen}
              otherRuns={runs.map((r) => r.name).filter((name) => name !== data.judge)}
            />
          </div>
        </Card>

        <AcceptanceCard
          acceptance={data.acceptance}
          epsilon={epsilon}
          delta={delta}
          onLevels={(e, d) => {
            setEpsilon(e);
            setDelta(d);
          }}
          noun="items"
          csv={csv}
          queue={
            <HybridQueueForm
              studyId={studyId}
              judge={data.judge}
              criterion={data.criterion}
              target={data.target}
              people={people}
              studyOpen={studyOpen}
              guaranteed={{ epsilon: data.acceptance.epsilon, delta: data.acceptance.delta }}
            />
          }
        />
      </div>
    </div>
  );
}

/** Target accuracy in percent; applied on Enter or when the field loses focus. */
function TargetInput({ value, onCommit }: { value: number; onCommit: (v: number) => void }) {
  const [text, setText] = useState(String(+(value * 100).toFixed(2)));
  const [problem, setProblem] = useState<string | null>(null);
  const commit = () => {
    const v = Number(text);
    if (!Number.isFinite(v) || v <= 0 || v > 100) {
      setProblem('A percentage above 0 and at most 100.');
      return;
    }
    setProblem(null);
    const share = +(v / 100).toFixed(4);
    if (share !== value) onCommit(share);
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        commit();
      }}
    >
      <Input
        label="Target accuracy (%)"
        type="number"
        inputMode="decimal"
        min={1}
        max={100}
        step={0.5}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        error={problem}
        wrapperClassName="w-44"
        data-testid="target-input"
      />
    </form>
  );
}
