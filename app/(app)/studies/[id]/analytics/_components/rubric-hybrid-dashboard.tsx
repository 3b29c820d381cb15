'use client';

import { useState } from 'react';
import { Select } from '@/components/ui/select';
import type { Flat, ReportJson, ReportParams } from '@/lib/query/analytics';
import type { PersonDto } from '@/lib/server/accounts/dto';
import type { HybridPlanDto, JudgeRunDto } from '@/lib/server/analytics/dto';
import { AcceptanceCard } from './acceptance-card';
import { DimensionSelect } from './rubric-selects';
import { CsvLink, JsonLink } from './downloads';
import { count } from './format';
import { JudgeSelect } from './judge-select';
import { RubricQueueForm } from './rubric-hybrid-queue-form';
import { type Column, Explain, StatTable, TableCard, metric } from './stat-table';
import { useOptionsInUrl, useReport } from './use-report';
import { Value } from './value';

/*
 * Padó's hybrid plan for one dimension of a rubric study: which of the judge's labels to trust, what goes to people,
 * and what that saves, for every tutor, per tutor and per dimension. Reads the same JSON as
 * `concord report hybrid --json`, offers its tables as CSV, and opens the review queue the plan asks for.
 */

type Report = ReportJson['rubric-hybrid'];
type Plan = Flat<HybridPlanDto>;
type Class = Report['classes'][number];

const PLAN: Column<Plan>[] = [
  { head: 'Replies', numeric: true, cell: (p) => count(p.n) },
  metric('Judge alone', 'rate', 'accJudge'),
  { head: 'Accept', cell: (p) => p.acceptedClass ?? '—' },
  metric('Hybrid', 'rate', 'accHybrid'),
  metric('Effort saved', 'rate', 'effortSaved'),
  { head: 'Extra reviews', numeric: true, cell: (p) => count(p.extraReviewsExpected) },
];

/** The plan for every tutor (the row without a model), then one per tutor. */
type TutorPlan = Plan & { model?: string };
const TUTORS: Column<TutorPlan>[] = [
  { head: 'Tutor', cell: (p) => p.model ?? 'All tutors', className: (p) => (p.model === undefined ? 'font-medium' : undefined) },
  ...PLAN,
];

const DIMENSIONS: Column<Report['byCriterion'][number]>[] = [
  {
    head: 'Dimension',
    cell: (d) => (
      <>
        {d.name}
        {d.lenient ? <span className="block text-xs text-slate-500">lenient</span> : null}
      </>
    ),
  },
  ...PLAN,
];

const CLASSES: Column<Class>[] = [
  { head: 'Judge’s label', cell: (c) => c.label },
  { head: 'Given', numeric: true, cell: (c) => count(c.predicted) },
  { head: 'Right', numeric: true, cell: (c) => count(c.correct) },
  {
    head: 'Class-wise accuracy',
    numeric: true,
    cell: (c) => <Value value={c.classwiseAccuracy} reason={c.classwiseAccuracyReason} kind="rate" interval={c.interval} />,
  },
  { head: 'Decision', cell: (c) => (c.decision === 'accept' ? 'accept the judge' : 'send to people') },
];

export function RubricHybridDashboard({
  studyId,
  runs,
  dimensions,
  initial,
  people,
  studyOpen,
}: {
  studyId: number;
  runs: JudgeRunDto[];
  /** The study's dimensions, and whether each has a lenient map (only those can be planned leniently). */
  dimensions: { id: string; name: string; hasLenient: boolean }[];
  initial: Report;
  people: PersonDto[];
  studyOpen: boolean;
}) {
  const [judge, setJudge] = useState(initial.judge);
  const [criterion, setCriterion] = useState(initial.criterion);
  const [lenient, setLenient] = useState(initial.lenient);
  const [target, setTarget] = useState(initial.target);
  const [epsilon, setEpsilon] = useState(initial.acceptance.epsilon);
  const [delta, setDelta] = useState(initial.acceptance.delta);
  const params: ReportParams['rubric-hybrid'] = { judge, criterion, target, epsilon, delta, lenient: lenient ? 'true' : 'false' };
  const { data, error } = useReport(studyId, 'rubric-hybrid', params, {
    params: {
      judge: initial.judge,
      criterion: initial.criterion,
      target: initial.target,
      epsilon: initial.acceptance.epsilon,
      delta: initial.acceptance.delta,
      lenient: initial.lenient ? 'true' : 'false',
    },
    data: initial,
  });
  useOptionsInUrl({
    judge,
    criterion,
    target,
    epsilon: epsilon === 0.05 ? undefined : epsilon,
    delta: delta === 0.05 ? undefined : delta,
    lenient: lenient ? 'true' : undefined,
  });
  const canFold = dimensions.find((d) => d.id === criterion)?.hasLenient ?? false;
  const shownParams: ReportParams['rubric-hybrid'] = {
    judge: data.judge,
    criterion: data.criterion,
    target: data.target,
    epsilon: data.acceptance.epsilon,
    delta: data.acceptance.delta,
    lenient: data.lenient ? 'true' : 'false',
  };
  const tutors: TutorPlan[] = [data, ...data.byModel];
  const csv = (table: 'plans' | 'classes' | 'acceptance' | 'strata') => (
    <CsvLink studyId={studyId} report="rubric-hybrid" params={shownParams} table={table} name={data.judge} />
  );
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-4">
          <JudgeSelect runs={runs} value={judge} onChange={setJudge} />
          <DimensionSelect
            dimensions={dimensions}
            value={criterion}
            onChange={(id) => {
              setCriterion(id);
              // A dimension without a lenient map is planned strictly.
              if (!dimensions.find((d) => d.id === id)?.hasLenient) setLenient(false);
            }}
            wrapperClassName="w-64"
          />
          <label className="flex items-center gap-2 pb-2 text-sm">
            <input type="checkbox" checked={lenient} disabled={!canFold} onChange={(e) => setLenient(e.target.checked)} />
            Lenient (fold labels by the dimension’s map, as Padó)
          </label>
          <Select
            label="Target accuracy"
            value={String(target)}
            onChange={(e) => setTarget(Number(e.target.value))}
            wrapperClassName="w-40"
          >
            {[0.9, 0.95, 0.97, 0.99].map((t) => (
              <option key={t} value={t}>
                {Math.round(t * 100)} %
              </option>
            ))}
          </Select>
        </div>
        <JsonLink studyId={studyId} report="rubric-hybrid" params={shownParams} name={data.judge} />
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Explain>
        Padó’s hybrid review: trust the judge on the label it gets right most often, send every reply it gave another label to people, and
        add random checks of the trusted label until the expected accuracy reaches {Math.round(data.target * 100)} %. Planned on the replies
        with both a ground truth and a verdict.
      </Explain>
      <TableCard title={`Plan for ${data.criterion}${data.lenient ? ' (lenient)' : ''}`} actions={csv('plans')}>
        <StatTable
          caption="Hybrid plan, every tutor and per tutor"
          testId="rubric-hybrid-table"
          columns={TUTORS}
          rows={tutors}
          rowKey={(p) => p.model ?? ''}
        />
      </TableCard>
      <TableCard title="Class-wise accuracy of the judge" actions={csv('classes')}>
        <StatTable caption="Class-wise accuracy, every tutor" columns={CLASSES} rows={data.classes} rowKey={(c) => c.label} />
      </TableCard>
      <TableCard title="Every dimension">
        <StatTable caption="Hybrid plan per dimension" columns={DIMENSIONS} rows={data.byCriterion} rowKey={(d) => d.criterion} />
      </TableCard>
      <RubricQueueForm
        studyId={studyId}
        judge={data.judge}
        criterion={data.criterion}
        target={data.target}
        lenient={data.lenient}
        people={people}
        studyOpen={studyOpen}
      />
      <AcceptanceCard
        acceptance={data.acceptance}
        epsilon={epsilon}
        delta={delta}
        onLevels={(e, d) => {
          setEpsilon(e);
          setDelta(d);
        }}
        noun="replies"
        csv={csv}
        queue={
          <RubricQueueForm
            studyId={studyId}
            judge={data.judge}
            criterion={data.criterion}
            target={data.target}
            lenient={data.lenient}
            people={people}
            studyOpen={studyOpen}
            guaranteed={{ epsilon: data.acceptance.epsilon, delta: data.acceptance.delta }}
          />
        }
      />
    </div>
  );
}
