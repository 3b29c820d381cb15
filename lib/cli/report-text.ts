import {
  type AcceptanceDto,
  type CalibrationPartDto,
  type CertifyReportDto,
  type ReportDtos,
  type ReportName,
  type HybridReportDto,
  type RubricHybridReportDto,
  type AnyTableSpec,
  REPORT_SPECS,
  columnsOf,
  isStatColumn,
  readStat,
} from '@/lib/server/analytics/dto';
import { ci, num, pct, withCi } from './format';

/*
 * What `concord report …` prints without `--json`, per report: a line naming the report, then its tables printed from
 * their column specs (`specText`), the same columns the dashboard and the CSV show, and the few sentences that are
 * not a table (below, "written out").
 */

/* ----- from the column specs ----- */

const numberText = (value: number, kind: string) =>
  kind === 'percent' ? `${(100 * value).toFixed(1)} %` : kind === 'p-value' ? value.toFixed(4) : value.toFixed(3);

/** A count as it is; a value a spec gives as a plain number (a share, a bound) with three decimals. */
const plainText = (v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(3) : String(v ?? '—'));

/**
 * One table as text: a title line with the number of rows, a line naming the text columns, then a line per row — its
 * text columns as the row's name (with their notes), then every count and statistic as "header value [interval]", or
 * "header — (reason)" when undefined. A long table may show only its `last` rows (the path of a confidence sequence,
 * whose end is what decided), saying so; its CSV holds every row.
 */
export function specText<D, R>(spec: AnyTableSpec<D, R>, report: D, { last }: { last?: number } = {}): string {
  const columns = columnsOf(spec, report).filter((c) => !c.csvOnly);
  const rows = spec.rows(report);
  const shown = last !== undefined && rows.length > last ? rows.slice(-last) : rows;
  let text = `\n${spec.title} (${rows.length}${shown.length < rows.length ? `, the last ${shown.length} shown` : ''})\n`;
  const names = columns.filter((c) => !isStatColumn(c) && c.value === 'text').map((c) => c.header);
  if (names.length && shown.length) text += `  [${names.join(', ')}]\n`;
  for (const row of shown) {
    const name: string[] = [];
    const values: string[] = [];
    for (const c of columns) {
      if (isStatColumn(c)) {
        const s = readStat(row, c.key);
        const i = s.interval;
        const cell =
          s.value === null
            ? `— (${s.reason})`
            : numberText(s.value, c.value) +
              (i && i.lower !== null && i.upper !== null ? ` [${numberText(i.lower, c.value)}, ${numberText(i.upper, c.value)}]` : '');
        values.push(`${c.header} ${cell}`);
      } else if (c.value === 'text') {
        const note = c.note?.(row);
        const v = c.display ? c.display(row) : c.get(row);
        name.push(`${v === null || v === '' ? '—' : v}${note ? ` (${note})` : ''}`);
      } else values.push(`${c.header} ${plainText(c.get(row))}`);
    }
    text += `  ${name.join(', ')}: ${values.join(', ')}\n`;
  }
  return text;
}

/** Every table of a report, in the order of its specs; `last` limits the tables it names to their last rows. */
export const allTables = (name: keyof typeof REPORT_SPECS, report: unknown, last: Record<string, number> = {}) =>
  Object.entries(REPORT_SPECS[name])
    .map(([id, spec]) => specText(spec as AnyTableSpec<unknown, unknown>, report, { last: last[id] }))
    .join('');

/*
 * ----- written out -----
 * Only what is not a table: the line naming a report and its options, the hybrid plan's and the guarantee's
 * sentences (what to accept and what it saves, set against each other), the certification's decision and the
 * alternative annotator test's verdict per criterion, and why a table of the bias report is empty. Each sentence
 * reads several columns together, which a row of a table cannot say.
 */

/** What reaching the target takes, after the plan's tables. */
const planText = (p: HybridReportDto | RubricHybridReportDto) =>
  p.extraReviewsExpected
    ? `to reach the target: about ${p.extraReviewsExpected} more random review(s) of "${p.acceptedClass}" (worst case ${p.extraReviewsWorstCase}), effort saved then ${pct(p.effortSavedExpectedAfter)}\n`
    : 'the target is reached without further reviews\n';

/** Error-bounded acceptance beside Padó's plan, in two lines. */
const acceptanceText = (a: AcceptanceDto) =>
  `with a guarantee (error below ${pct({ value: a.epsilon })} with probability ${pct({ value: 1 - a.delta })}, Holm): accept ` +
  `${a.acceptedLabels.length ? a.acceptedLabels.map((l) => `"${l}"`).join(', ') : 'nothing'} = ${pct(a.acceptedShare)} of ${a.pool} judged item(s), ` +
  `work saved ${pct(a.effortSaved)}\n` +
  `  Padó's plan on the same data accepts "${a.pado.acceptedClass ?? '—'}" = ${pct(a.pado.acceptedShare)}, observed error ${pct(a.pado.observedError)} ` +
  `(bound at ${pct({ value: 1 - a.delta })}: ${pct(a.pado.errorUpper)})${a.pado.guaranteed ? ', guaranteed too' : ', not guaranteed'}\n`;

/** The judge runs without a calibration, and what would give them one. */
const uncalibratedText = (r: CalibrationPartDto) => (r.uncalibrated.length ? `\n${r.uncalibrated.join(', ')}: ${UNCALIBRATED}\n` : '');

/** What makes a judge run's calibration appear, in one line (the Bias tab says the same). */
export const UNCALIBRATED =
  'one verdict per item and no confidence — judge each item more than once (both reply orders, or several samples) to measure calibration';

const DECISION: Record<string, string> = { certified: 'certified', refuted: 'refuted', keep_labelling: 'keep labelling' };

/**
 * Under an active draw the decision is the weighted estimate's (issue 28): say so, with the estimator's name as the
 * JSON gives it and the labels it used, so the bounds above are not read as what decided.
 */
function activeText(r: CertifyReportDto): string {
  const a = r.active;
  if (!a) return '';
  const labels = a.drawnLabelled + a.labelledBefore;
  return (
    `  estimator: ${r.estimator} on ${labels} label(s) (${a.drawnLabelled} drawn, ${a.labelledBefore} from before the draw` +
    `${a.pending ? `, ${a.pending} drawn item(s) still pending` : ''}): weighted alignment ${withCi(a.alignmentRate, a.interval)}` +
    ` → ${a.decision ? DECISION[a.decision] : '—'}\n`
  );
}

/** The rows of the confidence sequence the text shows: its end, which decided; the CSV holds every step. */
const PATH_STEPS = 10;

/**
 * A certification of either kind; a rubric one says which sample it read and whether it folded labels. The decision
 * and each criterion's verdict of the alternative annotator test are sentences; the tables follow.
 */
function certifyText(r: CertifyReportDto, name: 'certify' | 'rubric-certify', what = ''): string {
  let text =
    `Certifying "${r.judge}" on ${r.criterion}${what} against a target alignment of ${r.target} (study ${r.studyId}):\n` +
    `  ${r.agree} of ${r.n} ground-truth labels matched (${num(r.alignmentRate)}), ${r.unjudged} without a verdict\n` +
    `  anytime-valid 95 % bounds${ci(r.bounds) || ` — (${r.bounds.reason})`}\n` +
    `  decision: ${r.decision ? DECISION[r.decision] : `— (${r.decisionReason})`}` +
    (r.decision === 'keep_labelling' ? ` (about ${num(r.itemsNeeded, 0)} more items at the current rate)` : '') +
    '\n' +
    (r.drift ? '  the observed rate lies outside the bounds: the alignment changed along the settle order\n' : '') +
    activeText(r);
  text += `\nCan the judge replace an annotator? (alternative annotator test, ε ${r.altTest.epsilon}, items with ≥ ${r.altTest.minReviewers} reviewers)\n`;
  for (const c of r.altTest.criteria)
    text +=
      `  ${c.criterion}: ${c.itemsUsed} items, ${c.annotatorsTested} annotator(s) tested, ω ${num(c.winningRate)}, ρ ${num(c.advantageProbability)} → ` +
      (c.judgeCanReplace === null
        ? `— (${c.judgeCanReplaceReason})`
        : c.judgeCanReplace
          ? 'the judge can replace an annotator'
          : 'the judge cannot replace an annotator') +
      '\n';
  return text + allTables(name, r, { path: PATH_STEPS });
}

/** Every report's text: a report added to ReportName without its text here does not compile. */
export const REPORT_TEXT: { [R in ReportName]: (r: ReportDtos[R]) => string } = {
  gold: (r) =>
    `Accuracy on gold items, study ${r.studyId}: ${r.goldItems} gold item(s), gold rate ${r.ratePct} %, ` +
    `${r.alertBelowPct === null ? 'no threshold' : `threshold ${r.alertBelowPct} %`}\n` +
    allTables('gold', r),

  annotators: (r) =>
    `Annotator quality, ${r.kind} study (ground truth: ${r.rule}; accuracy and κ against it without the annotator's own vote)\n` +
    `Study median active time per item: ${r.medianActiveSeconds === null ? '— (none recorded)' : `${r.medianActiveSeconds.toFixed(1)} s`}\n` +
    allTables('annotators', r),
  agreement: (r) =>
    `Agreement before adjudication, study ${r.studyId} (bootstrap ${r.bootstrap.replicates} replicates, seed ${r.bootstrap.seed})\n` +
    allTables('agreement', r),
  'rubric-agreement': (r) =>
    `Agreement before adjudication, rubric study ${r.studyId} (bootstrap ${r.bootstrap.replicates} replicates, seed ${r.bootstrap.seed})\n` +
    allTables('rubric-agreement', r),

  alignment: (r) =>
    `Judge "${r.judge}" against ground truth (${r.groundTruthRule}) in study ${r.studyId}: ${r.groundTruth.labels} ground-truth labels, ` +
    `${r.unjudged} without a verdict, ${r.groundTruth.incompleteItems} item(s) not settled, ${r.unparsedVerdicts} unreadable verdict(s)\n` +
    allTables('alignment', r),
  'rubric-alignment': (r) =>
    `Judge "${r.judge}" (sample ${r.sample}) against ground truth (${r.groundTruthRule}) in rubric study ${r.studyId}: ` +
    `${r.groundTruth.labels} ground-truth labels, ${r.unjudged} without a verdict, ${r.groundTruth.incompleteItems} item(s) not settled\n` +
    allTables('rubric-alignment', r),

  leaderboard: (r) => `Leaderboard of study ${r.studyId}, ties counted as: ${r.tiePolicy}\n` + allTables('leaderboard', r),
  'rubric-leaderboard': (r) =>
    `Share of desired labels per tutor, rubric study ${r.studyId} (judge sample ${r.sample})\n` + allTables('rubric-leaderboard', r),

  hybrid: (r) =>
    `Hybrid review plan for "${r.judge}" on ${r.criterion}, calibration sample of ${r.n} items (target ${pct({ value: r.target })})\n` +
    allTables('hybrid', r) +
    '\n' +
    planText(r) +
    acceptanceText(r.acceptance),
  'rubric-hybrid': (r) =>
    `Hybrid review plan for "${r.judge}" on ${r.criterion}${r.lenient ? ' (lenient)' : ''}, target ${pct({ value: r.target })}\n` +
    allTables('rubric-hybrid', r) +
    '\nall tutors: ' +
    planText(r) +
    acceptanceText(r.acceptance),

  certify: (r) => certifyText(r, 'certify'),
  'rubric-certify': (r) => certifyText(r, 'rubric-certify', ` (judge sample ${r.sample}${r.lenient ? ', labels folded leniently' : ''})`),

  bias: (r) =>
    `Biases in study ${r.studyId}\n` +
    allTables('bias', r) +
    (r.humanPositionReason ? `\nReviewers preferring the reply shown first: — (${r.humanPositionReason})\n` : '') +
    uncalibratedText(r),
  'rubric-bias': (r) => {
    const desired = r.lenient ? 'the desired label or one folded into it' : 'the desired label';
    return (
      `Biases in rubric study ${r.studyId} (judge sample ${r.sample}; "desired" is ${desired})\n` +
      allTables('rubric-bias', r) +
      (r.leniency.length ? '' : '\nLeniency: — (no judge verdict on a reply with ground truth)\n') +
      (r.lengthReason ? `\nLength bias: — (${r.lengthReason})\n` : '') +
      uncalibratedText(r)
    );
  },
};
