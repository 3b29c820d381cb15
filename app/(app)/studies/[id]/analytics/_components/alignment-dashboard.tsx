'use client';

import { useState } from 'react';
import { Heatmap } from '@/components/charts/heatmap';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Select } from '@/components/ui/select';
import { Stat } from '@/components/ui/stat';
import { TD } from '@/components/ui/table';
import type { ReportJson } from '@/lib/query/analytics';
import {
  ALIGNMENT_HEADLINE,
  ALIGNMENT_SCREENS,
  type AlignmentMissingRow,
  type ColumnSpec,
  type IntervalDto,
  type JudgeRunDto,
  REPORT_SPECS,
  REPORT_TABLES,
  type Reason,
  type ReportTable,
  type TableSpec,
  isStatColumn,
  readStat,
} from '@/lib/server/analytics/dto';
import { CertifyCard, RubricCertifyCard } from './certify-card';
import { CertifyQuestions } from './certify-questions';
import { CsvLink, JsonLink } from './downloads';
import { FoldedEmpty } from './folded';
import { LABEL_TEXT, count, formatInterval, formatValue, reasonText } from './format';
import { IntervalsPanel } from './intervals-panel';
import { JudgeSelect } from './judge-select';
import { ScoringSelect } from './rubric-selects';
import { StatTable, TableCard, specColumns } from './stat-table';
import { AUTO_BOOTSTRAP_MAX_LABELS, INTERVAL_REPLICATES, useOptionsInUrl, useReport } from './use-report';

/*
 * How well a judge run matches the ground truth, for every kind of study: the same JSON as `concord report
 * alignment --json`. The headline figures are the overall summary's statistics and the tables are the report's
 * column specs (lib/server/analytics/dto/alignment-tables.ts, listed for the screen in `ALIGNMENT_SCREENS`), the
 * same specs the CSV downloads read. What only one kind has — a judge run's samples, the lenient scoring, class-wise
 * accuracy — shows where the report holds it.
 */

export type AlignmentReportName = 'alignment' | 'rubric-alignment';

/** A summary as the JSON gives it; a rubric summary names its label order and may have a lenient twin. */
type Summary = Record<string, unknown> & {
  n: number;
  agree: number;
  confusion: number[][] | null;
  labels?: string[] | null;
  classwise?: Record<string, unknown>[];
  intervals: Record<string, IntervalDto>;
  lenient?: Summary;
};

/** What every alignment report's JSON holds, and what some kinds add. */
type Shape = {
  judge: string;
  groundTruthRule: string;
  groundTruth: { labels: number; incompleteItems: number };
  unparsedVerdicts: number;
  unjudged: number;
  bootstrap: { replicates: number };
  overall: Summary;
  byCriterion: (Summary & { criterion: string; name: string })[];
  labelSet?: readonly string[];
  sample?: number;
  samples?: number[];
  dimensions?: { id: string; name: string; labels: string[]; desired: string; lenient?: Record<string, string> }[];
};

const RULE: Record<string, string> = {
  adjudicated: 'the reviewers’ label where they agree, else the adjudicator’s',
  majority: 'the majority of the reviewers’ labels, else the adjudicator’s',
  dawid_skene: 'the adjudicator’s label where there is one, else the Dawid–Skene model’s most probable label',
  mace: 'the adjudicator’s label where there is one, else the MACE model’s most probable label',
};

const NUMBER = { percent: 'rate', ratio: 'coef', 'p-value': 'p' } as const;

export function AlignmentDashboard<R extends AlignmentReportName>({
  studyId,
  report,
  runs,
  initial,
}: {
  studyId: number;
  report: R;
  runs: JudgeRunDto[];
  initial: ReportJson[R];
}) {
  const first = initial as unknown as Shape;
  const [judge, setJudge] = useState(first.judge);
  const [sample, setSample] = useState(first.sample);
  const [lenient, setLenient] = useState(false);
  const [shownMatrix, setShownMatrix] = useState('');
  const labels = first.overall.n;
  const [bootstrap, setBootstrap] = useState(labels > 0 && labels <= AUTO_BOOTSTRAP_MAX_LABELS ? INTERVAL_REPLICATES : 0);
  const { data, fetching, error, retry } = useReport(studyId, report, { judge, sample, bootstrap } as never, {
    params: { judge: first.judge, sample: first.sample, bootstrap: 0 } as never,
    data: initial,
  });
  const d = data as unknown as Shape;
  useOptionsInUrl({ judge, sample: sample === 1 ? undefined : sample });
  const stale = d.judge !== judge;
  const params = { judge: d.judge, sample: d.sample, bootstrap: d.bootstrap.replicates } as never;
  const tables = REPORT_SPECS[report] as unknown as Record<string, TableSpec<unknown, unknown>>;
  const csv = (table: string) => (
    <CsvLink studyId={studyId} report={report} params={params} table={table as ReportTable<R>} name={d.judge} />
  );
  const anyLenient = d.dimensions?.some((x) => x.lenient) ?? false;
  const pick = (s: Summary | undefined) => (s && lenient ? s.lenient : s);

  // The confusion matrix of everything pooled (where one label set holds) or of one criterion.
  const matrices = [
    { id: 'all', name: 'All pooled', s: pick(d.overall) },
    ...d.byCriterion.map((c) => ({ id: c.criterion, name: c.name, s: pick(c) })),
  ].filter((m): m is { id: string; name: string; s: Summary } => !!m.s?.confusion);
  const matrix = matrices.find((m) => m.id === shownMatrix) ?? matrices[0];
  const matrixLabels = matrix ? (matrix.s.labels ?? d.labelSet ?? []) : [];
  const headline = tables[ALIGNMENT_HEADLINE[report].table];
  const headRow = (ALIGNMENT_HEADLINE[report].row as (r: unknown, lenient: boolean) => unknown)(d, lenient);
  const o = d.overall;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-4">
          <JudgeSelect
            runs={runs}
            value={judge}
            onChange={(j) => {
              setJudge(j);
              if (sample !== undefined) setSample(1);
            }}
          />
          {d.samples && d.samples.length > 1 ? (
            <Select label="Sample" value={String(sample)} onChange={(e) => setSample(Number(e.target.value))} wrapperClassName="w-32">
              {d.samples.map((s) => (
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
          {stale && fetching ? (
            <p role="status" className="pb-2 text-sm text-slate-600">
              Loading {judge}…
            </p>
          ) : null}
        </div>
        <JsonLink studyId={studyId} report={report} params={params} name={d.judge} />
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

      <div className={stale ? 'space-y-5 opacity-50' : 'space-y-5'} aria-busy={stale || undefined}>
        <Card
          title={`${d.judge} against the ground truth`}
          description={`Ground truth: ${RULE[d.groundTruthRule] ?? d.groundTruthRule} (rule “${d.groundTruthRule}”).`}
          actions={csv(ALIGNMENT_HEADLINE[report].table)}
        >
          <p className="mb-3 text-sm text-slate-600">
            Alignment rate: the share of ground-truth labels, over all criteria, that the judge matched
            {anyLenient ? ` (${lenient ? 'lenient' : 'strict'} scoring)` : ''}. κ takes away the agreement expected by chance.
          </p>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="alignment-overall">
            {headRow ? (
              headline.columns
                .filter(isStatColumn)
                .filter((c) => !c.csvOnly)
                .map((c) => <Headline key={c.id} column={c} row={headRow} />)
            ) : (
              <p className="text-sm text-slate-500">No pooled figure for this scoring: not every dimension has a lenient map.</p>
            )}
          </div>
          <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4" data-testid="alignment-facts">
            <Fact
              label="Ground-truth labels"
              value={count(d.groundTruth.labels)}
              note={
                d.groundTruth.incompleteItems
                  ? `${count(d.groundTruth.incompleteItems)} item(s) not settled yet, left out`
                  : 'every item settled'
              }
            />
            <Fact label="Compared with a verdict" value={count(o.n)} />
            <Fact label="Unjudged labels" value={count(d.unjudged)} note="ground-truth labels the judge gave no verdict on" />
            <Fact
              label="Unreadable verdicts"
              value={count(d.unparsedVerdicts)}
              note="records whose verdict could not be read at import; left out, never guessed"
            />
          </dl>
        </Card>

        <CertifyQuestions />
        {d.sample !== undefined && d.dimensions ? (
          <RubricCertifyCard studyId={studyId} judge={d.judge} sample={d.sample} dimensions={d.dimensions} />
        ) : (
          <CertifyCard studyId={studyId} judge={d.judge} criteria={d.byCriterion.map((c) => ({ id: c.criterion, name: c.name }))} />
        )}

        {o.n === 0 ? (
          <EmptyState
            title="Nothing to compare yet"
            description={`No ground-truth label has a verdict of ${d.judge} yet: items are compared once their reviews are settled (and adjudicated where the reviewers disagree).`}
          />
        ) : (
          <>
            {matrix ? (
              <Card
                title="Confusion matrix"
                description="Rows: the label people settled on; columns: the judge’s."
                actions={
                  <>
                    {(['confusion', 'classwise'] as const)
                      .filter((t) => (REPORT_TABLES[report] as readonly string[]).includes(t))
                      .map((t) => (
                        <span key={t}>{csv(t)}</span>
                      ))}
                  </>
                }
              >
                <div className="space-y-3">
                  {matrices.length > 1 ? (
                    <Select label="Labels of" value={matrix.id} onChange={(e) => setShownMatrix(e.target.value)} wrapperClassName="w-72">
                      {matrices.map((m) => (
                        <option key={m.id} value={m.id}>
                          {m.name}
                        </option>
                      ))}
                    </Select>
                  ) : null}
                  <Heatmap
                    rowLabels={matrixLabels.map((l) => LABEL_TEXT[l] ?? l)}
                    colLabels={matrixLabels.map((l) => LABEL_TEXT[l] ?? l)}
                    values={matrix.s.confusion!}
                    rowTitle="Ground truth"
                    colTitle="Judge"
                  />
                  {matrix.s.classwise?.length && tables.classwise ? (
                    <>
                      <p className="text-sm text-slate-600">
                        Class-wise accuracy is how often the judge is right when it gives a label (Padó’s measure for deciding which of its
                        labels to trust); recall is how many of the replies with that label it finds.
                      </p>
                      <StatTable
                        caption="Class-wise accuracy and recall"
                        columns={specColumns(
                          shownColumns(tables.classwise.columns, ['judge', 'sample', 'tutor', 'dimension', 'scoring', 'support']),
                        )}
                        rows={matrix.s.classwise}
                        rowKey={(c) => String(c.label)}
                      />
                    </>
                  ) : null}
                </div>
              </Card>
            ) : null}

            {ALIGNMENT_SCREENS[report].map((screen) => {
              const spec = tables[screen.table];
              const columns = shownColumns(spec.columns, screen.hide ?? []);
              const rows = (screen.rows as (r: unknown, lenient: boolean) => unknown[])(d, lenient);
              const isMissing = (r: unknown): r is AlignmentMissingRow => typeof r === 'object' && r !== null && 'missing' in r;
              const empty = screen.fold ? rows.filter((r) => !isMissing(r) && (r as { n: number }).n === 0) : [];
              const shown = rows.filter((r) => !empty.includes(r));
              const groupBy = screen.groupBy as ((r: unknown) => string) | undefined;
              return (
                <TableCard key={screen.title} title={screen.title} actions={csv(screen.table)} explain={screen.explain}>
                  {rows.length === 0 && screen.none ? (
                    <p className="px-4 py-3 text-sm text-slate-500">{screen.none}</p>
                  ) : (
                    <StatTable
                      caption={screen.title}
                      testId={screen.testId}
                      columns={specColumns(columns)}
                      rows={shown}
                      rowKey={(r) => (isMissing(r) ? `missing:${r.key}` : spec.rowKey(r))}
                      rowCells={(r) =>
                        isMissing(r) ? (
                          <>
                            <TD>{r.name}</TD>
                            <TD colSpan={columns.filter((c) => !c.csvOnly).length - 1} className="text-slate-500">
                              {r.missing}
                            </TD>
                          </>
                        ) : undefined
                      }
                      groupBy={groupBy && { key: groupBy, label: groupBy }}
                    />
                  )}
                  {screen.fold ? (
                    <FoldedEmpty
                      names={empty.map((r) => nameOf(columns, r))}
                      noun={screen.fold}
                      why="no ground-truth label the judge was compared on"
                    />
                  ) : null}
                </TableCard>
              );
            })}
          </>
        )}
      </div>
    </div>
  );
}

/** The spec's columns less those the screen leaves out. */
const shownColumns = <R,>(columns: readonly ColumnSpec<R>[], hide: readonly string[]) => columns.filter((c) => !hide.includes(c.id));

/** How a row is named: its first text column as the screen writes it. */
function nameOf(columns: readonly ColumnSpec<unknown>[], row: unknown): string {
  const c = columns.find((x) => !isStatColumn(x) && x.value === 'text' && !x.csvOnly);
  if (!c || isStatColumn(c)) return '';
  return String((c.display ? c.display(row) : c.get(row)) ?? '');
}

/** One overall statistic: its value, its 95 % interval, or why it is undefined. */
function Headline({ column, row }: { column: { id: string; key: string; header: string; value: keyof typeof NUMBER }; row: unknown }) {
  const s = readStat(row, column.key);
  const kind = NUMBER[column.value];
  const value = s.value === null ? 'n/a' : formatValue(s.value, kind);
  const interval = s.interval && formatInterval(s.interval, kind);
  return (
    <Stat
      label={column.header}
      value={column.key === 'alignmentRate' ? <span data-testid="alignment-rate">{value}</span> : value}
      sublabel={s.value === null ? reasonText(s.reason as Reason | undefined) : interval ? `95 % ${interval}` : 'interval not computed yet'}
    />
  );
}

function Fact({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div>
      <dt className="text-xs tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="font-semibold text-slate-900 tabular-nums">
        {value}
        {note ? <span className="block text-xs font-normal text-slate-500">{note}</span> : null}
      </dd>
    </div>
  );
}
