import type { ReactNode } from 'react';
import { IntervalBars } from '@/components/charts/interval-bars';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { TD } from '@/components/ui/table';
import type { ReportJson, ReportParams } from '@/lib/query/analytics';
import type { ReportTable } from '@/lib/server/analytics/dto';
import { count, formatValue, reasonText } from './format';
import type { LengthBiasRow } from './length-bias-table';
import { type Column, StatTable } from './stat-table';
import { Value } from './value';

/*
 * What the bias dashboard draws differently for each bias report, keyed by the report's name: its options and their
 * controls, the cards of the tables only it has (a pairwise study's position bias, a rubric study's leniency) and
 * how its length bias reads (the measure, what a row counts). The dashboard (bias-dashboard.tsx) draws the rest.
 */

export type BiasReportName = 'bias' | 'rubric-bias';

type Own<R extends BiasReportName> = { data: ReportJson[R]; csv: (table: ReportTable<R>) => ReactNode };

export type BiasPart<R extends BiasReportName> = {
  /** The options the report was computed with, as the route's query parameters. */
  params: (data: ReportJson[R]) => ReportParams[R];
  /** The options kept in the page's address (defaults left out). */
  inUrl: (params: ReportParams[R]) => Record<string, string | number | undefined>;
  controls: (p: { data: ReportJson[R]; params: ReportParams[R]; set: (params: ReportParams[R]) => void }) => ReactNode;
  own: (p: Own<R>) => ReactNode;
  length: {
    question: string;
    explain: ReactNode;
    itemsLabel: string;
    scopeLabel: string;
    unit: string;
    fifths: [string, string];
    rows: (data: ReportJson[R]) => LengthBiasRow[];
    /** Why there is no length bias to show, or undefined. */
    reason: (data: ReportJson[R]) => string | undefined;
    whyEmpty: string;
  };
};

/* ----- pairwise: position bias ----- */

type Pairwise = ReportJson['bias'];
type First = Pairwise['judgePosition'][number]['firstPreferred'];

/** The share of decisive verdicts that chose the reply shown first, with its count, and its binomial p. */
const firstColumns = <R,>(first: (row: R) => First): Column<R>[] => [
  {
    head: 'First shown preferred',
    numeric: true,
    cell: (row) => {
      const f = first(row);
      return (
        <>
          <Value value={f.rate} reason={f.rateReason} kind="rate" interval={f.interval} testId="first-rate" />
          <span className="block text-xs text-slate-500">
            {count(f.count)} of {count(f.decisive)}
          </span>
        </>
      );
    },
  },
  { head: 'p', numeric: true, cell: (row) => <Value value={first(row).pValue} reason={first(row).pValueReason} kind="p" /> },
];

const named = (name: string, under: string) => (
  <>
    <span className="font-medium">{name}</span>
    <span className="block text-xs text-slate-500">{under}</span>
  </>
);

type JudgePosition = Pairwise['judgePosition'][number];
const JUDGE_POSITION: Column<JudgePosition>[] = [
  { head: 'Judge run · criterion', cell: (j) => named(j.judge, j.criterion) },
  { head: 'In both orders', numeric: true, cell: (j) => `${count(j.itemsBothOrders)} of ${count(j.items)}` },
  { head: 'Flip rate', numeric: true, cell: (j) => <Value value={j.flipRate} reason={j.flipRateReason} kind="rate" /> },
  { head: 'Win ↔ lose', numeric: true, cell: (j) => <Value value={j.reversalRate} reason={j.reversalRateReason} kind="rate" /> },
  ...firstColumns<JudgePosition>((j) => j.firstPreferred),
];

type HumanPosition = Pairwise['humanPosition'][number];
/** The pooled row of a criterion stands out from its reviewers' rows. */
const pooled = (h: HumanPosition) => (h.reviewer === null ? 'bg-slate-50/70' : undefined);
const HUMAN_POSITION = (
  [
    { head: 'Criterion · reviewer', cell: (h) => named(h.reviewer ?? 'All reviewers', h.criterion) },
    { head: 'Labels', numeric: true, cell: (h) => count(h.verdicts) },
    ...firstColumns<HumanPosition>((h) => h.firstPreferred),
  ] satisfies Column<HumanPosition>[]
).map((c): Column<HumanPosition> => ({ ...c, className: pooled }));

function PositionCards({ data, csv }: Own<'bias'>) {
  return (
    <>
      <Card
        title="Judge position bias"
        description="Does the judge change its verdict when the replies swap places?"
        actions={csv('judge-position')}
        padded={false}
      >
        <p className="px-4 pt-3 text-sm text-slate-600">
          Only items the judge saw in both orders count. Flip rate: the share whose verdict changed with the order; first shown preferred:
          the share of decisive verdicts that chose the reply shown first (50 % = no position bias; Wilson 95 % interval, exact binomial p).
        </p>
        {data.judgePosition.every((j) => j.itemsBothOrders === 0) ? (
          <p className="px-4 py-3 text-sm text-slate-600" data-testid="judge-position-none">
            No judge run has judged an item in both reply orders, so there is nothing to compare: position bias appears for a run made with
            “send both orders” (the default for pairwise runs started in Concord).
          </p>
        ) : (
          <StatTable
            caption="Judge position bias"
            testId="judge-position-table"
            rowTestId="judge-position-row"
            wrapperClassName="rounded-none border-0"
            columns={JUDGE_POSITION}
            rows={data.judgePosition}
            rowKey={(j) => `${j.judge}\u0000${j.criterion}`}
          />
        )}
      </Card>

      <Card
        title="Reviewer position bias"
        description="Do reviewers prefer the reply shown first?"
        actions={csv('human-position')}
        padded={false}
      >
        <p className="px-4 pt-3 text-sm text-slate-600">
          From the order each reviewer saw the replies in, stored with every label given on the review screen: the share of decisive labels
          that chose Response 1 (50 % = no order effect), per reviewer and for everyone together.
        </p>
        {data.humanPositionReason ? (
          <p className="px-4 py-3 text-sm text-amber-800" data-testid="human-position-empty">
            Not available: {reasonText(data.humanPositionReason)} — imported labels carry no display order; only labels given on Concord’s
            review screen do.
          </p>
        ) : (
          <StatTable
            caption="Reviewer position bias"
            testId="human-position-table"
            wrapperClassName="rounded-none border-0"
            columns={HUMAN_POSITION}
            rows={data.humanPosition}
            rowKey={(h) => `${h.criterion}\u0000${h.reviewer ?? ''}`}
          />
        )}
      </Card>
    </>
  );
}

const pairwise: BiasPart<'bias'> = {
  params: () => ({}),
  inUrl: () => ({}),
  controls: () => null,
  own: PositionCards,
  length: {
    question: 'Does the longer reply win more often?',
    explain: (
      <>
        d = length of reply a − length of reply b, in characters. Win share of reply a (ties ½) in each fifth of the items ordered by d, and
        the slope of the log-odds that a wins on sign(d)·ln(1 + |d|) (0 = length does not matter). Longer replies are often better, so
        compare a judge’s slope with the ground truth’s: the difference is the judge’s own length bias.
      </>
    ),
    itemsLabel: 'Items',
    scopeLabel: 'criterion',
    unit: 'range of d',
    fifths: ['a shortest', 'a longest'],
    rows: (data) =>
      data.length.map((l) => ({
        grader: l.grader,
        scope: l.criterion,
        n: l.n,
        slope: l.slope,
        slopeReason: l.slopeReason,
        slopeInterval: l.intervals.slope,
        pValue: l.pValue,
        pValueReason: l.pValueReason,
        bins: (l.bins ?? []).map((b) => ({
          bin: b.bin,
          value: b.winShareTiesHalf,
          reason: b.winShareTiesHalfReason,
          lowerEdge: b.lowerEdge,
          upperEdge: b.upperEdge,
        })),
      })),
    reason: () => undefined,
    whyEmpty: '',
  },
};

/* ----- rubric: leniency ----- */

type Rubric = ReportJson['rubric-bias'];
type Leniency = Rubric['leniency'][number];

/** A judge run that gave the same label as the ground truth on every shared reply: no disagreement to lean either way. */
const agreesEverywhere = (l: { judgeOnly: number; groundTruthOnly: number }) => l.judgeOnly + l.groundTruthOnly === 0;

const dimensionName = (data: Rubric, id: string) => data.dimensions.find((d) => d.id === id)?.name ?? id;

/** A dimension's desired label, with the labels folded into it when the report is lenient. */
function desiredOf(data: Rubric, id: string) {
  const d = data.dimensions.find((x) => x.id === id);
  if (!d) return id;
  const folded = data.lenient && d.lenient ? Object.keys(d.lenient).filter((l) => d.lenient![l] === d.desired) : [];
  return [d.desired, ...folded].join(' or ');
}

const leniencyColumns = (data: Rubric): Column<Leniency>[] => [
  {
    head: 'Judge run · dimension',
    cell: (l) => named(l.judge, `${dimensionName(data, l.criterion)} · desired: ${desiredOf(data, l.criterion)}`),
  },
  { head: 'Replies', numeric: true, cell: (l) => count(l.n) },
  { head: 'Judge: desired', numeric: true, cell: (l) => <Value value={l.judgeShare} reason={l.judgeShareReason} kind="rate" /> },
  {
    head: 'Ground truth: desired',
    numeric: true,
    cell: (l) => <Value value={l.groundTruthShare} reason={l.groundTruthShareReason} kind="rate" />,
  },
  { head: 'Only the judge', numeric: true, cell: (l) => count(l.judgeOnly) },
  { head: 'Only people', numeric: true, cell: (l) => count(l.groundTruthOnly) },
  {
    head: 'Judge the generous one',
    numeric: true,
    cell: (l) => (
      <Value
        value={l.judgeMoreLenient.rate}
        reason={l.judgeMoreLenient.rateReason}
        kind="rate"
        interval={l.judgeMoreLenient.interval}
        testId="leniency-rate"
      />
    ),
  },
  {
    head: 'p',
    numeric: true,
    cell: (l) => <Value value={l.judgeMoreLenient.pValue} reason={l.judgeMoreLenient.pValueReason} kind="p" />,
  },
];

/** The columns before the test's two, which a run without a disagreement spans with one cell. */
const BEFORE_TEST = 6;

function LeniencyCard({ data, csv }: Own<'rubric-bias'>) {
  const columns = leniencyColumns(data);
  return (
    <Card
      title="Judge leniency"
      description="Does the judge give the desired label more often than people do, on the same replies?"
      actions={csv('leniency')}
      padded={false}
    >
      <p className="px-4 pt-3 text-sm text-slate-600">
        On the replies with both a ground-truth label and a verdict (judge sample {data.sample}): the share with the desired label from the
        judge and from the ground truth, and — where the two differ — the share where the judge was the generous one (50 % = no leniency;
        Wilson 95 % interval, McNemar&apos;s exact p).
      </p>
      {data.leniency.length ? (
        <>
          <div className="px-4 pt-3">
            {/* Runs that never disagree with people have no share to draw: one line says so instead of a bar of n/a. */}
            {data.leniency.every(agreesEverywhere) ? (
              <p className="text-sm text-slate-600" data-testid="leniency-no-disagreement">
                The judge and the ground truth gave the same label on every reply they share, so there is no disagreement to lean either
                way; the generous share appears once they differ on a reply.
              </p>
            ) : (
              <IntervalBars
                rows={data.leniency
                  .filter((l) => !agreesEverywhere(l))
                  .map((l) => ({
                    label: `${l.judge} · ${dimensionName(data, l.criterion)}`,
                    value: l.judgeMoreLenient.rate,
                    lo: l.judgeMoreLenient.interval.lower,
                    hi: l.judgeMoreLenient.interval.upper,
                    note: l.judgeMoreLenient.rate === null ? reasonText(l.judgeMoreLenient.rateReason) : undefined,
                  }))}
                domain={[0, 1]}
                bands={[
                  { from: 0, to: 0.5, label: 'stricter than people', tone: 'neutral' },
                  { from: 0.5, to: 1, label: 'more lenient than people', tone: 'warning' },
                ]}
                ariaLabel="Share of the disagreements where the judge gave the desired label, with 95 % intervals"
              />
            )}
          </div>
          <StatTable
            caption="Judge leniency"
            testId="leniency-table"
            rowTestId="leniency-row"
            wrapperClassName="rounded-none border-0"
            columns={columns}
            rows={data.leniency}
            rowKey={(l) => `${l.judge}\u0000${l.criterion}`}
            rowCells={(l) =>
              agreesEverywhere(l) ? (
                <>
                  {columns.slice(0, BEFORE_TEST).map((c, i) => (
                    <TD key={i} numeric={c.numeric}>
                      {c.cell(l)}
                    </TD>
                  ))}
                  <TD numeric colSpan={columns.length - BEFORE_TEST} className="text-slate-500">
                    no disagreement
                  </TD>
                </>
              ) : undefined
            }
          />
        </>
      ) : (
        <p className="px-4 py-3 text-sm text-slate-500" data-testid="leniency-empty">
          No judge run has a verdict on a reply with ground truth yet.
        </p>
      )}
    </Card>
  );
}

function RubricControls({ data, params, set }: Parameters<BiasPart<'rubric-bias'>['controls']>[0]) {
  const canFold = data.dimensions.some((d) => d.lenient);
  return (
    <>
      {data.samples.length > 1 ? (
        <Select
          label="Judge sample"
          value={String(params.sample ?? 1)}
          onChange={(e) => set({ ...params, sample: Number(e.target.value) })}
          wrapperClassName="w-36"
        >
          {data.samples.map((s) => (
            <option key={s} value={s}>
              sample {s}
            </option>
          ))}
        </Select>
      ) : null}
      {canFold ? (
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={params.lenient === 'true'}
            onChange={(e) => set({ ...params, lenient: e.target.checked ? 'true' : 'false' })}
            data-testid="bias-lenient"
          />
          Lenient: count the labels each dimension&apos;s map folds into the desired one (e.g. &ldquo;To some extent&rdquo; as
          &ldquo;Yes&rdquo;)
        </label>
      ) : null}
    </>
  );
}

const rubric: BiasPart<'rubric-bias'> = {
  params: (data) => ({ sample: data.sample, lenient: data.lenient ? 'true' : 'false' }),
  inUrl: (p) => ({ sample: p.sample === 1 ? undefined : p.sample, lenient: p.lenient === 'true' ? 'true' : undefined }),
  controls: RubricControls,
  own: LeniencyCard,
  length: {
    question: 'Do longer replies get the desired label more often?',
    explain: (
      <>
        The share of replies with the desired label in each fifth of the replies ordered by length (in characters), and the slope of its
        log-odds on ln(1 + length) (0 = length does not matter). Better replies may be longer, so compare a judge&apos;s slope with the
        ground truth&apos;s: the difference is the judge&apos;s own length bias.
      </>
    ),
    itemsLabel: 'Replies',
    scopeLabel: 'dimension',
    unit: 'reply length in characters',
    fifths: ['shortest', 'longest'],
    rows: (data) =>
      data.length.map((l) => ({
        grader: l.grader,
        scope: `${dimensionName(data, l.criterion)} · ${formatValue(l.n ? l.desired / l.n : 0, 'rate')} desired`,
        n: l.n,
        slope: l.slope,
        slopeReason: l.slopeReason,
        slopeInterval: l.intervals.slope,
        pValue: l.pValue,
        pValueReason: l.pValueReason,
        bins: (l.bins ?? []).map((b) => ({
          bin: b.bin,
          value: b.share,
          reason: b.shareReason,
          lowerEdge: b.lowerEdge,
          upperEdge: b.upperEdge,
        })),
      })),
    reason: (data) => data.lengthReason,
    whyEmpty: 'the items are whole dialogues, without a reply to measure.',
  },
};

export const BIAS_PARTS: { [R in BiasReportName]: BiasPart<R> } = { bias: pairwise, 'rubric-bias': rubric };
