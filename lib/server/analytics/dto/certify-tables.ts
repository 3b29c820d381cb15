/**
 * The certification report's tables, one definition for every kind of study: the decision, the path of the
 * confidence sequence and the alternative annotator test. What differs by kind is only the columns a kind adds after
 * the judge's name on every row (a rubric study's sample and lenient folding: `CertifyScope`, from
 * `lib/kinds/<kind>/report-columns.ts`). The CSV names are the downloads' headers from before the tables were data.
 */
import type { ColumnSpec, PlainColumnSpec, TableSpec } from './columns';
import { readStat, stat } from './columns';
import type { AltTestAnnotatorDto, AltTestCriterionDto, CertifyPointDto, CertifyReportDto } from './certify';

/** A row of the path, with its report (for the judge and the kind's columns). */
export type CertifyPathRow<D> = CertifyPointDto & { report: D };
/** An annotator of the alternative annotator test, with its criterion and report. */
export type AltTestRow<D> = AltTestAnnotatorDto & { test: AltTestCriterionDto; report: D };

/** What a kind of study adds to every row of its certification: columns read from the report, after the judge. */
export type CertifyScope<D> = { extra: readonly PlainColumnSpec<D>[] };

type Plain<R> = PlainColumnSpec<R>;
const text = <R>(id: string, header: string, get: Plain<R>['get'], csv = id): Plain<R> => ({ id, csv, header, value: 'text', get });
const count = <R>(id: string, header: string, get: Plain<R>['get'], csv = id): Plain<R> => ({ id, csv, header, value: 'count', get });
const csvOnly = <R>(c: Plain<R>): Plain<R> => ({ ...c, csvOnly: true });
/** A bound or rate written as a bare number (no reason column), from either form of the row. */
const bare = (v: { value?: number | null } | number | null | undefined) =>
  v !== null && typeof v === 'object' ? (v.value ?? null) : (v ?? null);

export type CertifyTables<D> = {
  decision: TableSpec<D, D>;
  path: TableSpec<D, CertifyPathRow<D>>;
  'alt-test': TableSpec<D, AltTestRow<D>>;
};

export function certifyTables<D extends CertifyReportDto>(scope: CertifyScope<D>): CertifyTables<D> {
  /** The judge's name, then the kind's columns, on every row of `R` that reaches its report through `of`. */
  const head = <R>(of: (row: R) => D): Plain<R>[] => [
    text<R>('judge', 'Judge', (r) => of(r).judge),
    ...scope.extra.map((c): Plain<R> => ({
      ...c,
      get: (r) => c.get(of(r)),
      display: c.display && ((r) => c.display!(of(r))),
      note: undefined,
    })),
  ];
  const decision: ColumnSpec<D>[] = [
    ...head<D>((r) => r),
    text('criterion', 'Criterion', (r) => r.criterion),
    count('target', 'Target', (r) => r.target),
    count('n', 'Labels', (r) => r.n),
    count('agree', 'Agree', (r) => r.agree),
    count('unjudged', 'Unjudged', (r) => r.unjudged),
    count('alignment_rate', 'Alignment', (r) => readStat(r, 'alignmentRate').value),
    text('decision', 'Decision', (r) => r.decision),
    text('decision_reason', 'Why no decision', (r) => r.decisionReason ?? null),
    count('lower', 'Lower bound', (r) => r.bounds.lower),
    count('upper', 'Upper bound', (r) => r.bounds.upper),
    text('bounds_reason', 'Why no bounds', (r) => r.bounds.reason ?? null),
    text('drift', 'Drift', (r) => r.drift),
    stat('itemsNeeded', 'items_needed', 'Items needed', 'ratio', { interval: false }),
    // What the decision rests on (issue 28), as the JSON's `estimator` and `active` say: under an active draw the
    // decision is the weighted estimate's, not the sequence's bounds above. The card on the screen says it in words.
    csvOnly(text('estimator', 'Estimator', (r) => r.estimator ?? 'confidence_sequence')),
    csvOnly(count('estimator_labels', 'Labels used', (r) => (r.active ? r.active.drawnLabelled + r.active.labelledBefore : r.n))),
    csvOnly(count('labels_pending', 'Labels pending', (r) => r.active?.pending ?? null)),
    csvOnly(count('active_alignment_rate', 'Weighted alignment', (r) => bare(r.active?.alignmentRate))),
    csvOnly(count('active_lower', 'Weighted lower bound', (r) => r.active?.interval.lower ?? null)),
    csvOnly(count('active_upper', 'Weighted upper bound', (r) => r.active?.interval.upper ?? null)),
  ];
  const path: ColumnSpec<CertifyPathRow<D>>[] = [
    ...head<CertifyPathRow<D>>((r) => r.report),
    text('criterion', 'Criterion', (r) => r.report.criterion),
    count('t', 'Step', (r) => r.t),
    text('item', 'Item', (r) => r.item),
    text('settled_at', 'Settled at', (r) => r.settledAt),
    count('agree', 'Agree', (r) => r.agree),
    count('lower', 'Lower bound', (r) => r.lower),
    count('upper', 'Upper bound', (r) => r.upper),
  ];
  const altTest: ColumnSpec<AltTestRow<D>>[] = [
    // The dashboard shows one table per criterion under its verdict (ω, ρ, can replace), so what names the row's
    // criterion and test is the CSV's only.
    ...head<AltTestRow<D>>((r) => r.report).map(csvOnly),
    csvOnly(text('criterion', 'Criterion', (r) => r.test.criterion)),
    csvOnly(count('epsilon', 'ε', (r) => r.report.altTest.epsilon)),
    text('annotator', 'Held-out reviewer', (r) => r.annotator),
    count('items', 'Items', (r) => r.items),
    csvOnly(text('tested', 'Tested', (r) => r.tested)),
    stat('rhoJudge', 'rho_judge', 'ρ judge', 'ratio', { interval: false }),
    stat('rhoHuman', 'rho_human', 'ρ reviewer', 'ratio', { interval: false }),
    { ...stat('t', 't', 't', 'ratio', { interval: false }), csvOnly: true },
    stat('pValue', 'p_value', 'p', 'p-value', { interval: false }),
    stat('pAdjusted', 'p_adjusted_by', 'p (BY)', 'p-value', { interval: false }),
    {
      ...text('judge_wins', 'Judge wins', (r) => r.judgeWins),
      display: (r) => (r.judgeWins === null ? 'not tested' : r.judgeWins ? 'yes' : 'no'),
    },
    csvOnly(count('winning_rate', 'Winning rate', (r) => bare(r.test.winningRate))),
    csvOnly(count('advantage_probability', 'Advantage probability', (r) => bare(r.test.advantageProbability))),
    csvOnly(text('judge_can_replace', 'Judge can replace', (r) => r.test.judgeCanReplace)),
  ];
  return {
    decision: { id: 'decision', title: 'Certification', rows: (r) => [r], columns: decision, rowKey: (r) => `${r.judge}:${r.criterion}` },
    path: {
      id: 'path',
      title: 'Confidence sequence',
      rows: (r) => r.path.map((p) => ({ ...p, report: r })),
      columns: path,
      rowKey: (p) => String(p.t),
    },
    'alt-test': {
      id: 'alt-test',
      title: 'Alternative annotator test',
      rows: (r) => r.altTest.criteria.flatMap((test) => test.annotators.map((a) => ({ ...a, test, report: r }))),
      columns: altTest,
      rowKey: (a) => `${a.test.criterion}:${a.annotator}`,
    },
  };
}
