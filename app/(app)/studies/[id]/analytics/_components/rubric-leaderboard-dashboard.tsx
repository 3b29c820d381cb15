'use client';

import { useState } from 'react';
import { IntervalBars } from '@/components/charts/interval-bars';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import type { ReportJson } from '@/lib/query/analytics';
import { CorrectedValue } from './certify-leaderboard';
import { DimensionSelect, ScoringSelect } from './rubric-selects';
import { CsvLink, JsonLink } from './downloads';
import { count } from './format';
import { type Column, StatTable, TableCard, metric } from './stat-table';
import { Value } from './value';

/*
 * The per-tutor leaderboard of a rubric study: the share of each tutor's replies that got a dimension's desired
 * label, from the ground truth and from each judge run, and the judge's shares corrected by the settled replies.
 * Reads the same JSON as `concord report leaderboard --json` and offers its tables as CSV.
 */

type Report = ReportJson['rubric-leaderboard'];
type Row = Report['rows'][number];
type Corrected = Report['corrected'][number]['cells'][number] & { judge: string };

/** The corrected table's columns; a dimension is named as on the review screen, its id only when it has no name. */
const correctedColumns = (dimensions: Report['dimensions']): Column<Corrected>[] => [
  { head: 'Judge', cell: (c) => c.judge },
  { head: 'Tutor', cell: (c) => c.model },
  { head: 'Dimension', cell: (c) => dimensions.find((d) => d.id === c.criterion)?.name ?? c.criterion },
  metric('People only', 'rate', 'humanOnly'),
  metric('Judge only', 'rate', 'judgeOnly'),
  { head: 'Corrected', numeric: true, cell: (c) => <CorrectedValue cell={c} /> },
  {
    head: 'Worth (human labels)',
    numeric: true,
    cell: (c) => (c.effectiveLabels === null ? 'n/a' : count(Math.round(c.effectiveLabels))),
  },
];

export function RubricLeaderboardDashboard({ studyId, initial }: { studyId: number; initial: Report }) {
  const data = initial;
  const [lenient, setLenient] = useState(false);
  const [dimension, setDimension] = useState(data.dimensions[0]?.id ?? '');
  const params = { sample: data.sample };
  const anyLenient = data.dimensions.some((d) => d.lenient);
  const share = (r: Row, id: string) =>
    lenient && r.lenient[id] !== undefined
      ? { value: r.lenient[id], reason: r.lenientReasons?.[id], interval: r.intervals.lenient[id] }
      : { value: r.perCriterion[id], reason: r.perCriterionReasons?.[id], interval: r.intervals.perCriterion[id] };
  const dim = data.dimensions.find((d) => d.id === dimension) ?? data.dimensions[0];
  const gold = data.rows.filter((r) => r.grader === 'ground truth');
  if (!dim) return <EmptyState title="No dimensions" description="This study has no dimensions to rank tutors on." />;
  const shares: Column<Row>[] = [
    { head: 'Tutor', cell: (r) => r.model },
    { head: 'Graded by', cell: (r) => r.grader },
    ...data.dimensions.map((d) => ({
      head: d.name,
      key: d.id,
      numeric: true,
      cell: (r: Row) => {
        const s = share(r, d.id);
        return <Value value={s.value} reason={s.reason} kind="rate" interval={s.interval} />;
      },
    })),
  ];
  const corrected: Corrected[] = data.corrected.flatMap((run) =>
    run.cells
      .filter((c) => c.lenient === (lenient && !!data.dimensions.find((d) => d.id === c.criterion)?.lenient))
      .map((c) => ({ ...c, judge: run.judge })),
  );
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        {anyLenient ? (
          <ScoringSelect
            lenient={lenient}
            onChange={setLenient}
            strictLabel="Strict: only the desired label counts"
            lenientLabel="Lenient: labels folded by the dimension’s map"
          />
        ) : (
          <span />
        )}
        <JsonLink studyId={studyId} report="rubric-leaderboard" params={params} />
      </div>
      <TableCard
        title="Share of desired labels per tutor"
        actions={<CsvLink studyId={studyId} report="rubric-leaderboard" params={params} table="leaderboard" />}
        explain={
          <>
            For each tutor, the share of its replies that got the dimension’s desired label (“{dim.desired}” on {dim.name}) — from the
            ground truth and from each judge run — with 95 % Wilson intervals, as in MRBench’s results tables.
          </>
        }
      >
        <StatTable
          caption="Desired-label share per tutor, grader and dimension"
          testId="rubric-leaderboard-table"
          columns={shares}
          rows={data.rows}
          rowKey={(r) => `${r.model}-${r.grader}`}
        />
      </TableCard>
      <Card title="Ground truth per tutor">
        <div className="space-y-3">
          <DimensionSelect dimensions={data.dimensions} value={dim.id} onChange={setDimension} />
          <IntervalBars
            ariaLabel={`Share of “${dim.desired}” per tutor on ${dim.name}, from the ground truth`}
            domain={[0, 1]}
            rows={gold.map((r) => {
              const s = share(r, dim.id);
              return { label: r.model, value: s.value, lo: s.interval.lower, hi: s.interval.upper };
            })}
          />
        </div>
      </Card>
      {data.corrected.length ? (
        <TableCard
          title="Judge-corrected shares"
          actions={<CsvLink studyId={studyId} report="rubric-leaderboard" params={params} table="corrected" />}
          explain={
            <>
              The judge’s share on every reply it labelled, corrected by the replies people settled (prediction-powered inference, PPI++): a
              valid 95 % interval when the settled replies are a random sample of the tutor’s, beside the people-only and judge-only
              estimates.
            </>
          }
        >
          <StatTable
            caption="Judge-corrected desired-label shares"
            columns={correctedColumns(data.dimensions)}
            rows={corrected}
            rowKey={(c) => `${c.judge}-${c.model}-${c.criterion}-${c.lenient}`}
          />
        </TableCard>
      ) : null}
    </div>
  );
}
