'use client';

import { useState } from 'react';
import { Heatmap } from '@/components/charts/heatmap';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { Stat } from '@/components/ui/stat';
import { TD } from '@/components/ui/table';
import type { Flat, ReportJson } from '@/lib/query/analytics';
import type { JudgeRunDto, RubricSummaryDto } from '@/lib/server/analytics/dto';
import { DimensionSelect, ScoringSelect } from './rubric-selects';
import { CsvLink, JsonLink } from './downloads';
import { count, formatValue } from './format';
import { IntervalsPanel } from './intervals-panel';
import { JudgeSelect } from './judge-select';
import { type Column, Explain, StatTable, TableCard, metric, via } from './stat-table';
import { AUTO_BOOTSTRAP_MAX_LABELS, INTERVAL_REPLICATES, useOptionsInUrl, useReport } from './use-report';
import { Value } from './value';
import { RubricCertifyCard } from './certify-card';
import { CertifyQuestions } from './certify-questions';

/*
 * How well a judge run labels the replies of a rubric study, against the ground truth: strict (every label its own
 * class) or lenient (labels folded by a dimension's map), per dimension, per label and per tutor × dimension. Reads
 * the same JSON as `concord report alignment --json` and offers its tables as CSV.
 */

type Report = ReportJson['rubric-alignment'];
type Summary = Flat<RubricSummaryDto>;
type Scored = Summary & { lenient?: Summary };
type DimensionRow = { criterion: string; name: string; summary: Summary | undefined };
type Classwise = Summary['classwise'][number];

const pick = (s: Scored, lenient: boolean): Summary | undefined => (lenient ? s.lenient : s);

/** A dimension's row has its summary, or one cell saying it has no lenient map (read only when it has it). */
const SUMMARY: Column<DimensionRow>[] = [
  { head: 'Dimension', cell: (c) => c.name },
  ...[
    { head: 'Labels', numeric: true, cell: (s: Summary) => count(s.n) },
    metric('Accuracy', 'rate', 'alignmentRate'),
    { head: 'Macro-F1', numeric: true, cell: (s: Summary) => <Value value={s.macroF1} reason={s.macroF1Reason} kind="coef" /> },
    metric('κ', 'coef', 'cohenKappa'),
  ].map((column: Column<Summary>) => via((c: DimensionRow) => c.summary as Summary, column)),
];

const CLASSWISE: Column<Classwise>[] = [
  { head: 'Judge’s label', cell: (c) => c.label },
  { head: 'Given', numeric: true, cell: (c) => count(c.predicted) },
  { head: 'Right', numeric: true, cell: (c) => count(c.correct) },
  metric('Class-wise accuracy', 'rate', 'accuracy'),
  metric('Recall', 'rate', 'recall'),
];

const rate = (s: Summary) => (
  <Value value={s.alignmentRate} reason={s.alignmentRateReason} kind="rate" interval={s.intervals.alignmentRate} />
);

export function RubricAlignmentDashboard({ studyId, runs, initial }: { studyId: number; runs: JudgeRunDto[]; initial: Report }) {
  const [judge, setJudge] = useState(initial.judge);
  const [sample, setSample] = useState(initial.sample);
  const [lenient, setLenient] = useState(false);
  const [dimension, setDimension] = useState(initial.dimensions[0]?.id ?? '');
  const labels = initial.overall.n;
  const [bootstrap, setBootstrap] = useState(labels > 0 && labels <= AUTO_BOOTSTRAP_MAX_LABELS ? INTERVAL_REPLICATES : 0);
  const { data, fetching, error, retry } = useReport(
    studyId,
    'rubric-alignment',
    { judge, sample, bootstrap },
    { params: { judge: initial.judge, sample: initial.sample, bootstrap: 0 }, data: initial },
  );
  useOptionsInUrl({ judge, sample: sample === 1 ? undefined : sample });
  const params = { judge: data.judge, sample: data.sample, bootstrap: data.bootstrap.replicates };
  const anyLenient = data.dimensions.some((d) => d.lenient);
  const scored = (s: Scored) => pick(s, lenient);
  const dim = data.byCriterion.find((c) => c.criterion === dimension) ?? data.byCriterion[0];
  const shown = dim ? scored(dim) : undefined;
  const overall = scored(data.overall);
  const csv = (table: 'summaries' | 'confusion' | 'classwise') => (
    <CsvLink studyId={studyId} report="rubric-alignment" params={params} table={table} name={data.judge} />
  );
  const tutors: Column<Report['byModel'][number]>[] = [
    { head: 'Tutor', cell: (m) => m.model },
    { head: 'All dimensions', numeric: true, cell: (m) => ((s) => (s ? rate(s) : '—'))(scored(m)) },
    ...data.dimensions.map((d) => ({
      head: d.name,
      key: d.id,
      numeric: true,
      cell: (m: Report['byModel'][number]) => {
        const c = m.byCriterion.find((x) => x.criterion === d.id);
        const s = c && scored(c);
        return s ? (
          <>
            {rate(s)}
            <span className="block text-xs text-slate-500">n {count(s.n)}</span>
          </>
        ) : (
          '—'
        );
      },
    })),
  ];
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-4">
          <JudgeSelect
            runs={runs}
            value={judge}
            onChange={(j) => {
              setJudge(j);
              setSample(1);
            }}
          />
          {data.samples.length > 1 ? (
            <Select label="Sample" value={String(sample)} onChange={(e) => setSample(Number(e.target.value))} wrapperClassName="w-32">
              {data.samples.map((s) => (
                <option key={s} value={s}>
                  sample {s}
                </option>
              ))}
            </Select>
          ) : null}
          {anyLenient ? (
            <ScoringSelect
              lenient={lenient}
              onChange={setLenient}
              strictLabel="Strict (every label its own class)"
              lenientLabel="Lenient (labels folded by the dimension’s map)"
              testId="scoring-select"
            />
          ) : null}
          {fetching && data.judge !== judge ? (
            <p role="status" className="pb-2 text-sm text-slate-600">
              Loading {judge}…
            </p>
          ) : null}
        </div>
        <JsonLink studyId={studyId} report="rubric-alignment" params={params} name={data.judge} />
      </div>
      <IntervalsPanel
        requested={bootstrap}
        computed={data.bootstrap}
        labels={labels}
        what="Cohen’s κ"
        error={error}
        onCompute={() => setBootstrap(INTERVAL_REPLICATES)}
        onRetry={retry}
      />
      <div className="grid gap-3 sm:grid-cols-4">
        <Stat
          label="Ground-truth labels judged"
          value={data.overall.n}
          sublabel={`${count(data.unjudged)} without a verdict, ${count(data.groundTruth.incompleteItems)} replies not settled`}
        />
        <Stat
          label="Judge equals ground truth"
          value={overall?.alignmentRate == null ? 'n/a' : formatValue(overall.alignmentRate, 'rate')}
          sublabel={lenient ? 'lenient' : 'strict'}
        />
        <Stat
          label="Macro-F1 (all dimensions)"
          value={overall?.macroF1 == null ? 'n/a' : formatValue(overall.macroF1, 'coef')}
          sublabel={overall?.macroF1 == null ? 'dimensions have different labels' : 'mean F1 over labels'}
        />
        <Stat label="Cohen’s κ (all dimensions)" value={overall?.cohenKappa == null ? 'n/a' : formatValue(overall.cohenKappa, 'coef')} />
      </div>
      <TableCard
        title="Per dimension"
        actions={csv('summaries')}
        explain={
          <>
            How often “{data.judge}” gives a reply the label people settled on, per dimension. Macro-F1 weighs every label equally, so a
            judge that only ever says the common label scores low; κ takes away chance agreement.
          </>
        }
      >
        <StatTable
          caption="Judge against ground truth per dimension"
          testId="rubric-alignment-table"
          columns={SUMMARY}
          rows={data.byCriterion.map((c) => ({ criterion: c.criterion, name: c.name, summary: scored(c) }))}
          rowKey={(c) => c.criterion}
          rowCells={(c) =>
            c.summary ? undefined : (
              <>
                <TD>{c.name}</TD>
                <TD colSpan={4} className="text-slate-500">
                  no lenient map
                </TD>
              </>
            )
          }
        />
      </TableCard>
      {dim ? (
        <Card
          title="Confusion matrix and class-wise accuracy"
          actions={
            <>
              {csv('confusion')}
              {csv('classwise')}
            </>
          }
        >
          <div className="space-y-3">
            <DimensionSelect
              dimensions={data.byCriterion.map((c) => ({ id: c.criterion, name: c.name }))}
              value={dim.criterion}
              onChange={setDimension}
            />
            {shown && shown.labels && shown.confusion ? (
              <>
                <Explain>
                  Rows: the label people settled on; columns: the judge’s. Class-wise accuracy is how often the judge is right when it gives
                  a label (Padó’s measure for deciding which of its labels to trust); recall is how many of the replies with that label it
                  finds.
                </Explain>
                <Heatmap
                  rowLabels={shown.labels}
                  colLabels={shown.labels}
                  values={shown.confusion}
                  rowTitle="Ground truth"
                  colTitle="Judge"
                />
                <StatTable caption="Class-wise accuracy and recall" columns={CLASSWISE} rows={shown.classwise} rowKey={(c) => c.label} />
              </>
            ) : (
              <p className="text-sm text-slate-500">This dimension has no lenient map.</p>
            )}
          </div>
        </Card>
      ) : null}
      <TableCard
        title="Per tutor and dimension"
        explain={
          <>
            The judge’s accuracy on each tutor’s replies (as in Padó’s Table 3): a judge can be reliable for one tutor and not for another.
          </>
        }
      >
        <StatTable
          caption="Accuracy per tutor and dimension"
          testId="rubric-tutor-table"
          columns={tutors}
          rows={data.byModel}
          rowKey={(m) => m.model}
        />
      </TableCard>
      <CertifyQuestions />
      <RubricCertifyCard studyId={studyId} judge={data.judge} sample={data.sample} dimensions={data.dimensions} />
    </div>
  );
}
