'use client';

import { useState } from 'react';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Stat } from '@/components/ui/stat';
import type { ReportJson, ReportParams } from '@/lib/query/analytics';
import type { PersonDto } from '@/lib/server/accounts/dto';
import {
  CLASS_COLUMNS,
  type ColumnSpec,
  type HybridChoicesDto,
  type HybridClassRow,
  type HybridPlanRow,
  type JudgeRunDto,
  PLAN_COLUMNS,
  REPORT_SPECS,
} from '@/lib/server/analytics/dto';
import { AcceptanceCard } from './acceptance-card';
import { CsvLink, JsonLink } from './downloads';
import { count, formatInterval, formatValue, reasonText } from './format';
import { HybridQueueForm } from './hybrid-queue-form';
import { JudgeSelect } from './judge-select';
import { StatTable, TableCard, specColumns } from './stat-table';
import { useOptionsInUrl, useReport } from './use-report';

/*
 * Padó's hybrid plan, and error-bounded acceptance beside it, for every kind of study: which of the judge's labels to
 * trust, what goes to people, what that saves, and the review queue it calls for. Reads the JSON of `concord report
 * hybrid --json`; its tables are the report's column specs (the CSV's). What differs by kind comes as data: the
 * entries to plan on and the words (`choices`, from the kind's part on the server), the groups and other entries a
 * report holds (a rubric study's tutors and dimensions).
 */

export type HybridReportName = 'hybrid' | 'rubric-hybrid';
type Report = ReportJson['hybrid'] & Partial<Pick<ReportJson['rubric-hybrid'], 'byModel' | 'byCriterion' | 'lenient'>>;
type Params = ReportParams['rubric-hybrid'];

const DEFAULT_TARGET = 0.95;
const DEFAULT_LEVEL = 0.05;
const pct = (v: number | null, reason?: string) => (v === null ? `n/a (${reasonText(reason)})` : formatValue(v, 'rate'));
const planKey = (p: HybridPlanRow) => JSON.stringify(p.about);

/** The columns saying what a plan is about that differ among the rows (the rest the selectors already say). */
function varying(columns: readonly ColumnSpec<HybridPlanRow>[], rows: HybridPlanRow[]) {
  const about = columns.slice(0, columns.length - PLAN_COLUMNS.length);
  return [...about.filter((c) => !('key' in c) && new Set(rows.map((r) => String(c.get(r)))).size > 1), ...PLAN_COLUMNS];
}

export function HybridDashboard({
  studyId,
  report,
  runs,
  choices,
  initial,
  people,
  studyOpen,
}: {
  studyId: number;
  report: HybridReportName;
  runs: JudgeRunDto[];
  choices: HybridChoicesDto;
  initial: ReportJson[HybridReportName];
  people: PersonDto[];
  studyOpen: boolean;
}) {
  const first = initial as Report;
  const foldable = choices.entries.some((e) => e.hasLenient);
  const [judge, setJudge] = useState(first.judge);
  const [criterion, setCriterion] = useState(first.criterion);
  const [lenient, setLenient] = useState(first.lenient ?? false);
  const [target, setTarget] = useState(first.target);
  const [epsilon, setEpsilon] = useState(first.acceptance.epsilon);
  const [delta, setDelta] = useState(first.acceptance.delta);
  const paramsOf = (r: { judge: string; criterion: string; target: number; epsilon: number; delta: number; lenient: boolean }): Params => ({
    judge: r.judge,
    criterion: r.criterion,
    target: r.target,
    epsilon: r.epsilon,
    delta: r.delta,
    ...(foldable ? { lenient: r.lenient ? ('true' as const) : ('false' as const) } : {}),
  });
  const levelsOf = (r: Report) => ({ epsilon: r.acceptance.epsilon, delta: r.acceptance.delta, lenient: r.lenient ?? false });
  const {
    data: json,
    fetching,
    error,
    retry,
  } = useReport(studyId, report, paramsOf({ judge, criterion, target, epsilon, delta, lenient }), {
    params: paramsOf({ ...first, ...levelsOf(first) }),
    data: initial,
  });
  const data = json as Report;
  useOptionsInUrl({
    judge,
    criterion,
    target: target === DEFAULT_TARGET ? undefined : target,
    epsilon: epsilon === DEFAULT_LEVEL ? undefined : epsilon,
    delta: delta === DEFAULT_LEVEL ? undefined : delta,
    lenient: lenient ? 'true' : undefined,
  });
  const shown = paramsOf({ ...data, ...levelsOf(data) });
  const stale = JSON.stringify(shown) !== JSON.stringify(paramsOf({ judge, criterion, target, epsilon, delta, lenient }));
  const csv = (table: string) => <CsvLink studyId={studyId} report={report} params={shown} table={table as never} name={data.judge} />;

  // The plans as the CSV has them: the plan of the entry (with each group's after it), then every other entry's.
  const tables = REPORT_SPECS[report];
  // hybridTables puts the plan table first (`plan` or `plans`, as the kind's scope names it).
  const planSpec = Object.values(tables)[0] as unknown as {
    id: string;
    rows: (r: unknown) => HybridPlanRow[];
    columns: readonly ColumnSpec<HybridPlanRow>[];
  };
  const plans = planSpec.rows(data);
  const own = plans.slice(0, 1 + (data.byModel?.length ?? 0));
  const others = plans.slice(own.length);
  const mainKey = planKey(plans[0]);
  const classRows = (tables.classes.rows as unknown as (r: unknown) => HybridClassRow[])(data).filter((c) => planKey(c.plan) === mainKey);
  const entryName = choices.entries.find((e) => e.id === data.criterion)?.name ?? data.criterion;
  const canFold = choices.entries.find((e) => e.id === criterion)?.hasLenient ?? false;
  const accepted = data.acceptedClass;
  const queueProps = {
    studyId,
    judge: data.judge,
    criterion: data.criterion,
    target: data.target,
    lenient: foldable ? (data.lenient ?? false) : undefined,
    group: choices.group,
    counted: choices.counted,
    people,
    studyOpen,
  };

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-4">
          <JudgeSelect runs={runs} value={judge} onChange={setJudge} />
          <Select
            label={choices.entryLabel}
            value={criterion}
            onChange={(e) => {
              setCriterion(e.target.value);
              // An entry without a lenient map is planned strictly.
              if (!choices.entries.find((x) => x.id === e.target.value)?.hasLenient) setLenient(false);
            }}
            wrapperClassName="w-64"
            data-testid="criterion-select"
          >
            {choices.entries.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
          {foldable ? (
            <label className="flex items-center gap-2 pb-2 text-sm">
              <input type="checkbox" checked={lenient} disabled={!canFold} onChange={(e) => setLenient(e.target.checked)} />
              Lenient (fold labels by the map, as Padó)
            </label>
          ) : null}
          <TargetInput value={target} onCommit={setTarget} />
          {stale && fetching ? (
            <p role="status" className="pb-2 text-sm text-slate-600">
              Recomputing…
            </p>
          ) : null}
        </div>
        <JsonLink studyId={studyId} report={report} params={shown} name={data.judge} />
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
        Padó’s (2025) hybrid review: on a calibration sample — the {count(data.n)} {choices.noun} with both a ground-truth label and a
        verdict of <strong>{data.judge}</strong> on <strong>{entryName}</strong>
        {data.lenient ? ' (labels folded leniently)' : ''} — measure how often each label the judge predicts is right. Keep the judge’s
        labels of the most reliable class, send every other prediction to people (a review is taken to return the ground truth), and count
        how many extra random checks of the kept labels it takes to reach the target accuracy.
        {data.unjudged ? ` ${count(data.unjudged)} ground-truth label(s) here have no verdict and are not in the sample.` : ''}
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
                : `${choices.noun} nobody reviews · 95 % ${formatInterval(data.intervals.effortSaved, 'rate')}`
            }
          />
          <Stat
            label="Sent to people"
            value={`${count(data.reviewed)} of ${count(data.n)}`}
            sublabel={data.reviewedClasses.length ? `every “${data.reviewedClasses.join('”, “')}” prediction` : 'none'}
          />
        </div>

        <TableCard
          title="Class-wise accuracy"
          explain="Per label the judge predicted: how often ground truth agrees, and what the plan does with it."
          actions={csv('classes')}
        >
          <StatTable
            caption="Class-wise accuracy and decision per predicted label"
            testId="classes-table"
            columns={specColumns(CLASS_COLUMNS)}
            rows={classRows}
            rowKey={(c) => c.label}
            wrapperClassName="rounded-none border-0"
          />
          {classRows.length === 0 ? (
            <p className="px-4 py-2 text-sm text-slate-500">
              No item has both a ground-truth label and a verdict here: there is nothing to calibrate on.
            </p>
          ) : null}
          {data.unpredictedLabels.length ? (
            <p className="px-4 py-2 text-xs text-slate-500">Never predicted (no decision to make): {data.unpredictedLabels.join(', ')}.</p>
          ) : null}
        </TableCard>

        <TableCard title={`Plan for ${entryName}${data.lenient ? ' (lenient)' : ''}`} actions={csv(planSpec.id)}>
          <StatTable
            caption="Hybrid plan of this entry, and of each group with its own"
            testId="hybrid-plans-table"
            columns={specColumns(varying(planSpec.columns, own))}
            rows={own}
            rowKey={planKey}
            wrapperClassName="rounded-none border-0"
          />
        </TableCard>
        {others.length ? (
          <TableCard title={`Every ${choices.entryLabel.toLowerCase()}`}>
            <StatTable
              caption="Hybrid plan of every other entry"
              columns={specColumns(varying(planSpec.columns, others))}
              rows={others}
              rowKey={planKey}
              wrapperClassName="rounded-none border-0"
            />
          </TableCard>
        ) : null}

        <Card title={`Reaching ${formatValue(data.target, 'rate')}`}>
          {accepted === null ? (
            <p className="text-sm text-slate-600">No plan: the calibration sample is empty.</p>
          ) : data.errorsToFix === 0 ? (
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
              {...queueProps}
              otherRuns={choices.activeOrder ? runs.map((r) => r.name).filter((name) => name !== data.judge) : undefined}
              sources={choices.activeSources}
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
          noun={choices.noun}
          csv={csv}
          queue={<HybridQueueForm {...queueProps} guaranteed={{ epsilon: data.acceptance.epsilon, delta: data.acceptance.delta }} />}
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
