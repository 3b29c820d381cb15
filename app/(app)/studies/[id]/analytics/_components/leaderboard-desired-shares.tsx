import { useState } from 'react';
import { IntervalBars } from '@/components/charts/interval-bars';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import type { ReportJson } from '@/lib/query/analytics';
import { CorrectedValue } from './certify-leaderboard';
import { count } from './format';
import { DimensionSelect, ScoringSelect } from './rubric-selects';
import { type Column, StatTable, TableCard, metric } from './stat-table';
import { Value } from './value';
import type { Own, Shown } from './leaderboard-parts';

/*
 * The rubric leaderboard's own cards (leaderboard-parts.tsx): the share of desired labels per tutor and dimension,
 * the judge-corrected shares (and which of them an active draw weights), and the strict/lenient control.
 */

type Rubric = ReportJson['rubric-leaderboard'];
type RubricRow = Rubric['rows'][number];
type Corrected = Rubric['corrected'][number]['cells'][number] & { judge: string };

/** The corrected table's columns; a dimension is named as on the review screen, its id only when it has no name. */
const correctedColumns = (dimensions: Rubric['dimensions']): Column<Corrected>[] => [
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

export function ScoringControl({ data, lenient, setLenient }: Shown<'rubric-leaderboard'>) {
  return data.dimensions.some((d) => d.lenient) ? (
    <ScoringSelect
      lenient={lenient}
      onChange={setLenient}
      strictLabel="Strict: only the desired label counts"
      lenientLabel="Lenient: labels folded by the dimension’s map"
    />
  ) : (
    <span />
  );
}

export function RubricCards({ data, lenient, csv }: Own<'rubric-leaderboard'>) {
  const [dimension, setDimension] = useState(data.dimensions[0]?.id ?? '');
  const share = (r: RubricRow, id: string) =>
    lenient && r.lenient[id] !== undefined
      ? { value: r.lenient[id], reason: r.lenientReasons?.[id], interval: r.intervals.lenient[id] }
      : { value: r.perCriterion[id], reason: r.perCriterionReasons?.[id], interval: r.intervals.perCriterion[id] };
  const dim = data.dimensions.find((d) => d.id === dimension) ?? data.dimensions[0];
  const gold = data.rows.filter((r) => r.grader === 'ground truth');
  if (!dim) return <EmptyState title="No dimensions" description="This study has no dimensions to rank tutors on." />;
  const shares: Column<RubricRow>[] = [
    { head: 'Tutor', cell: (r) => r.model },
    { head: 'Graded by', cell: (r) => r.grader },
    ...data.dimensions.map((d) => ({
      head: d.name,
      key: d.id,
      numeric: true,
      cell: (r: RubricRow) => {
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
    <>
      <TableCard
        title="Share of desired labels per tutor"
        actions={csv('leaderboard')}
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
          actions={csv('corrected')}
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
          <RubricActiveNote cells={corrected} dimensions={data.dimensions} />
        </TableCard>
      ) : null}
    </>
  );
}

/**
 * Which corrected shares rest on an active draw (decision 0045): their value is the inverse-probability-weighted
 * estimate, with the labels it used; the others are PPI++'s, as the card says above.
 */
function RubricActiveNote({ cells, dimensions }: { cells: Corrected[]; dimensions: Rubric['dimensions'] }) {
  const active = cells.filter((c) => c.estimator === 'active_ipw' && c.active);
  if (!active.length) return null;
  return (
    <div className="space-y-1 px-4 py-3 text-sm text-slate-600" data-testid="corrected-estimator">
      {active.map((c) => {
        const a = c.active!;
        return (
          <p key={`${c.judge}-${c.model}-${c.criterion}-${c.lenient}`}>
            {c.judge} · {c.model} · {dimensions.find((d) => d.id === c.criterion)?.name ?? c.criterion}: active labelling — corrected by the{' '}
            {count(a.drawnLabelled + a.labelledBefore)} labels people gave ({count(a.drawnLabelled)} of the {count(a.drawn)} replies drawn,
            each weighted by 1 / its probability, and {count(a.labelledBefore)} labelled before the draw; inverse-probability-weighted
            estimator).{a.pending ? ` ${count(a.pending)} drawn repl(ies) still await a label.` : ''}
          </p>
        );
      })}
    </div>
  );
}

/* ----- the parts by report ----- */
