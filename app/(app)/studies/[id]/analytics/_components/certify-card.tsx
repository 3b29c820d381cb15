'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BoundPathChart } from '@/components/charts/bound-path';
import { Card } from '@/components/ui/card';
import { type CertifyReportDto, REPORT_SPECS, type ReportTable } from '@/lib/server/analytics/dto';
import { type ReportJson, type ReportParams, reportFilename, reportOptions, reportUrl } from '@/lib/query/analytics';
import { DownloadLink } from './downloads';
import { count, formatValue, reasonText } from './format';
import { StatTable, specColumns } from './stat-table';

type Report = ReportJson['certify'];

/*
 * The alternative annotator test's table is the CSV's (`REPORT_SPECS.certify['alt-test']`), without what the CSV
 * repeats on every row; its rows are drawn from the report JSON, which the specs read as they read the DTO.
 */
const ALT_TEST = REPORT_SPECS.certify['alt-test'];
const ALT_TEST_COLUMNS = specColumns(ALT_TEST.columns);

const DECISION: Record<string, { text: string; tone: string }> = {
  certified: { text: 'Certified', tone: 'bg-emerald-50 text-emerald-800 border-emerald-200' },
  refuted: { text: 'Refuted', tone: 'bg-rose-50 text-rose-800 border-rose-200' },
  keep_labelling: { text: 'Keep labelling', tone: 'bg-amber-50 text-amber-800 border-amber-200' },
};

type Csv = (table: ReportTable<'certify'>) => React.ReactNode;

/** The CSV links of a certification report with the options it was asked with. */
function csvLinks<R extends 'certify' | 'rubric-certify'>(
  studyId: number,
  report: R,
  params: ReportParams[R],
  judge: string,
  criterion: string | undefined,
): Csv {
  return (table) => (
    <DownloadLink
      href={reportUrl(studyId, report, params, { format: 'csv', table: table as ReportTable<R> })}
      filename={reportFilename(studyId, report, { judge, criterion, table, format: 'csv' })}
    >
      CSV {table}
    </DownloadLink>
  );
}

/** The target alignment: typed freely, applied when it is a rate strictly between 0 and 1. */
function useTarget() {
  const [target, setTarget] = useState(0.9);
  const [draft, setDraft] = useState('0.9');
  const apply = () => {
    const t = Number(draft);
    if (t > 0 && t < 1) setTarget(t);
  };
  const input = (
    <label className="text-sm text-slate-700">
      Target alignment
      <input
        type="number"
        min="0.01"
        max="0.99"
        step="0.01"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={apply}
        className="ml-2 w-20 rounded-md border border-slate-300 px-2 py-1 text-sm"
      />
    </label>
  );
  return { target, apply, input };
}

function CriterionSelect({
  label,
  value,
  onChange,
  criteria,
}: {
  label: string;
  value: string;
  onChange: (id: string) => void;
  criteria: readonly { id: string; name: string }[];
}) {
  return (
    <label className="text-sm text-slate-700">
      {label}
      <select
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="ml-2 rounded-md border border-slate-300 px-2 py-1 text-sm"
        data-testid="certify-criterion"
      >
        {criteria.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Certification of the selected judge run while people label (anytime-valid bounds on its alignment, in the order
 * ground truth was settled) and the alternative annotator test, from the `certify` report.
 */
export function CertifyCard({
  studyId,
  judge,
  criteria,
}: {
  studyId: number;
  judge: string;
  /** The criteria the judge can be certified on (every criterion of the study and `overall`). */
  criteria: readonly { id: string; name: string }[];
}) {
  const target = useTarget();
  const [criterion, setCriterion] = useState(criteria.some((c) => c.id === 'overall') ? 'overall' : (criteria[0]?.id ?? 'overall'));
  const params = { judge, target: target.target, criterion };
  const query = useQuery({ ...reportOptions(studyId, 'certify', params), placeholderData: keepPreviousData });
  const csv = csvLinks(studyId, 'certify', params, judge, query.data?.criterion);
  return (
    <CertifyBody
      query={query}
      csv={csv}
      apply={target.apply}
      controls={
        <>
          <CriterionSelect label="Criterion" value={criterion} onChange={setCriterion} criteria={criteria} />
          {target.input}
        </>
      }
    />
  );
}

/**
 * The same card for a rubric study, from the `rubric-certify` report: one dimension at a time, the judge sample the
 * dashboard reads, and — where the dimension has a lenient map — labels folded by it when asked.
 */
export function RubricCertifyCard({
  studyId,
  judge,
  sample,
  dimensions,
}: {
  studyId: number;
  judge: string;
  sample: number;
  dimensions: readonly { id: string; name: string; lenient?: Record<string, string> }[];
}) {
  const target = useTarget();
  const [criterion, setCriterion] = useState(dimensions[0]?.id ?? '');
  const [lenient, setLenient] = useState(false);
  const canFold = !!dimensions.find((d) => d.id === criterion)?.lenient;
  const params = { judge, target: target.target, criterion, sample, lenient: canFold && lenient ? ('true' as const) : ('false' as const) };
  const query = useQuery({ ...reportOptions(studyId, 'rubric-certify', params), placeholderData: keepPreviousData });
  const csv = csvLinks(studyId, 'rubric-certify', params, judge, query.data?.criterion);
  return (
    <CertifyBody
      query={query}
      csv={csv}
      apply={target.apply}
      controls={
        <>
          <CriterionSelect label="Dimension" value={criterion} onChange={setCriterion} criteria={dimensions} />
          {target.input}
          {canFold ? (
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" checked={lenient} onChange={(e) => setLenient(e.target.checked)} data-testid="certify-lenient" />
              Lenient (fold labels by the dimension&apos;s map)
            </label>
          ) : null}
        </>
      }
    />
  );
}

function CertifyBody({
  query,
  csv,
  apply,
  controls,
}: {
  query: { data?: Report; error: Error | null; isFetching: boolean };
  csv: Csv;
  apply: () => void;
  controls: React.ReactNode;
}) {
  const data = query.data;
  return (
    <Card
      title="Certification while labelling"
      description="Can this judge stand in for people? Anytime-valid 95 % bounds on its alignment with the ground truth."
      actions={
        <>
          {csv('decision')}
          {csv('path')}
        </>
      }
      data-testid="certify-card"
    >
      <form
        className="mb-3 flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        {controls}
        {query.isFetching ? (
          <p role="status" className="text-sm text-slate-600">
            Computing…
          </p>
        ) : null}
      </form>
      {query.error ? (
        <p role="alert" className="text-sm text-rose-700">
          The certification could not be loaded: {query.error.message}
        </p>
      ) : !data ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-600">
            Items are taken in the order their ground truth was settled (the last review, or the ruling of a disagreement). The bounds hold
            at every step at once, so you may stop labelling as soon as they decide. {'kind' in data ? 'Dimension' : 'Criterion'}{' '}
            <strong>{data.criterion}</strong>
            {'lenient' in data && data.lenient ? ' (labels folded leniently)' : ''}: {count(data.agree)} of {count(data.n)} ground-truth
            labels matched
            {data.unjudged ? ` (${count(data.unjudged)} without a verdict are not counted)` : ''}.
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <span
              data-testid="certify-decision"
              className={`rounded-md border px-3 py-1.5 text-sm font-semibold ${data.decision ? DECISION[data.decision].tone : 'border-slate-200'}`}
            >
              {data.decision ? DECISION[data.decision].text : `n/a — ${reasonText(data.decisionReason)}`}
            </span>
            <span className="text-sm text-slate-700" data-testid="certify-bounds">
              {data.bounds.lower === null
                ? `bounds: ${reasonText(data.bounds.reason)}`
                : `alignment between ${formatValue(data.bounds.lower, 'rate')} and ${formatValue(data.bounds.upper!, 'rate')} (95 %, anytime); target ${formatValue(data.target, 'rate')}`}
            </span>
            {data.decision === 'keep_labelling' ? (
              <span className="text-sm text-slate-700" data-testid="certify-more">
                {data.itemsNeeded === null
                  ? 'no decision in sight at the current rate'
                  : `about ${count(data.itemsNeeded)} more items before a decision, if the judge keeps agreeing at ${formatValue(data.alignmentRate ?? 0, 'rate')}`}
              </span>
            ) : null}
          </div>
          {'active' in data && data.active ? (
            <p className="text-sm text-slate-700" data-testid="certify-estimator">
              Estimator: <strong>active labelling</strong> (inverse-probability weighted). People’s labels came from an active draw, so the
              decision rests on the weighted estimate of the judge’s alignment over every item it judged:{' '}
              {data.active.alignmentRate === null
                ? reasonText(data.active.alignmentRateReason)
                : formatValue(data.active.alignmentRate, 'rate')}
              {data.active.interval.lower === null
                ? ''
                : `, 95 % interval ${formatValue(data.active.interval.lower, 'rate')} to ${formatValue(data.active.interval.upper!, 'rate')}`}
              , from {count(data.active.drawnLabelled)} of {count(data.active.drawn)} drawn items and {count(data.active.labelledBefore)}{' '}
              labelled before the draw.
              {data.active.pending ? ` ${count(data.active.pending)} drawn item(s) still await a label; decide once they are in.` : ''} This
              interval holds at this moment, not at every step: the bounds above describe the labelled items only.
            </p>
          ) : null}
          {data.drift ? (
            <p className="text-sm text-amber-800">
              The observed rate ({formatValue(data.alignmentRate ?? 0, 'rate')}) lies outside the bounds: the judge agreed more often with
              earlier items than with later ones (or the reverse), so its alignment is not one constant number. Read the path.
            </p>
          ) : null}
          {data.path.length > 1 ? (
            <BoundPathChart
              data={data.path}
              target={data.target}
              ariaLabel={`Bounds on ${data.judge}'s alignment after each settled item`}
            />
          ) : (
            <p className="text-sm text-slate-500" data-testid="no-bound-path">
              The bounds&apos; path is drawn once two or more items are settled.
            </p>
          )}
          <AltTestTable data={data} csv={csv('alt-test')} />
        </div>
      )}
    </Card>
  );
}

function AltTestTable({ data, csv }: { data: Report; csv: React.ReactNode }) {
  const a = data.altTest;
  return (
    <section aria-labelledby="alt-test-title" data-testid="alt-test">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="alt-test-title" className="text-sm font-semibold text-slate-900">
          Alternative annotator test (ε = {a.epsilon})
        </h3>
        {csv}
      </div>
      <p className="mb-2 text-sm text-slate-600">
        On items with at least {a.minReviewers} reviewers, each reviewer is held out in turn: does the judge agree with the others at least
        as often as that reviewer does, within a margin ε? ω is the share of reviewers the judge beats (Benjamini–Yekutieli corrected); the
        judge can replace an annotator when ω ≥ ½. ρ is the share of items where the judge is at least as aligned as a held-out reviewer.
      </p>
      {a.criteria.map((c) => (
        <div key={c.criterion} className="mb-3">
          <p className="text-sm" data-testid="alt-test-verdict">
            <strong>{c.name}</strong>: {count(c.itemsUsed)} items, {c.annotatorsTested} reviewer(s) tested, ω{' '}
            {c.winningRate === null ? 'n/a' : formatValue(c.winningRate, 'coef')}, ρ{' '}
            {c.advantageProbability === null ? 'n/a' : formatValue(c.advantageProbability, 'coef')} —{' '}
            {c.judgeCanReplace === null
              ? `no verdict: ${reasonText(c.judgeCanReplaceReason)}`
              : c.judgeCanReplace
                ? 'the judge can replace an annotator'
                : 'the judge cannot replace an annotator'}
          </p>
          {c.annotators.length ? (
            <StatTable
              caption={`Alternative annotator test on ${c.name}`}
              columns={ALT_TEST_COLUMNS}
              rows={ALT_TEST.rows(data as unknown as CertifyReportDto).filter((r) => r.test.criterion === c.criterion)}
              rowKey={ALT_TEST.rowKey}
            />
          ) : null}
        </div>
      ))}
    </section>
  );
}
