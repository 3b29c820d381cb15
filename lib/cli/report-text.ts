import {
  type AcceptanceDto,
  type CalibrationPartDto,
  type CertifyReportDto,
  type ReportDtos,
  type ReportName,
  type StatDto,
  type AnyTableSpec,
  REPORT_SPECS,
  columnsOf,
  isStatColumn,
  readStat,
} from '@/lib/server/analytics/dto';
import { ci, num, pct, withCi } from './format';

/*
 * What `concord report …` prints without `--json`, per report. A report whose tables are column specs is printed
 * from them (`specText`), the same columns the dashboard and the CSV show; the others are written out here.
 */

/* ----- from the column specs ----- */

const numberText = (value: number, kind: string) =>
  kind === 'percent' ? `${(100 * value).toFixed(1)} %` : kind === 'p-value' ? value.toFixed(4) : value.toFixed(3);

/**
 * One table as text: a title line, then a line per row — its text columns as the row's name (with their notes),
 * then every count and statistic as "header value [interval]", or "header — (reason)" when undefined.
 */
export function specText<D, R>(spec: AnyTableSpec<D, R>, report: D): string {
  const columns = columnsOf(spec, report).filter((c) => !c.csvOnly);
  const rows = spec.rows(report);
  let text = `\n${spec.title} (${rows.length})\n`;
  for (const row of rows) {
    const name: string[] = [];
    const values: string[] = [];
    for (const c of columns) {
      if (isStatColumn(c)) {
        const s = readStat(row, c.key);
        const i = s.interval;
        const shown =
          s.value === null
            ? `— (${s.reason})`
            : numberText(s.value, c.value) +
              (i && i.lower !== null && i.upper !== null ? ` [${numberText(i.lower, c.value)}, ${numberText(i.upper, c.value)}]` : '');
        values.push(`${c.header} ${shown}`);
      } else if (c.value === 'text') {
        const note = c.note?.(row);
        name.push(`${(c.display ? c.display(row) : c.get(row)) ?? '—'}${note ? ` (${note})` : ''}`);
      } else values.push(`${c.header} ${c.get(row) ?? '—'}`);
    }
    text += `  ${name.join(', ')}: ${values.join(', ')}\n`;
  }
  return text;
}

const allTables = (name: keyof typeof REPORT_SPECS, report: unknown) =>
  Object.values(REPORT_SPECS[name])
    .map((spec) => specText(spec as AnyTableSpec<unknown, unknown>, report))
    .join('');

/* ----- written out ----- */

type PlanLine = {
  n: number;
  accJudge: StatDto;
  accHybrid: StatDto;
  effortSaved: StatDto;
  extraReviewsExpected: number;
  acceptedClass: string | null;
};

const planLine = (label: string, p: PlanLine) =>
  `${label}: n ${p.n}, judge alone ${pct(p.accJudge)}, accept "${p.acceptedClass ?? '—'}" → hybrid ${pct(p.accHybrid)}, effort saved ${pct(p.effortSaved)}, ` +
  `extra reviews ${p.extraReviewsExpected}\n`;

/** Error-bounded acceptance beside Padó's plan, in two lines. */
const acceptanceText = (a: AcceptanceDto) =>
  `with a guarantee (error below ${pct({ value: a.epsilon })} with probability ${pct({ value: 1 - a.delta })}, Holm): accept ` +
  `${a.acceptedLabels.length ? a.acceptedLabels.map((l) => `"${l}"`).join(', ') : 'nothing'} = ${pct(a.acceptedShare)} of ${a.pool} judged item(s), ` +
  `work saved ${pct(a.effortSaved)}\n` +
  `  Padó's plan on the same data accepts "${a.pado.acceptedClass ?? '—'}" = ${pct(a.pado.acceptedShare)}, observed error ${pct(a.pado.observedError)} ` +
  `(bound at ${pct({ value: 1 - a.delta })}: ${pct(a.pado.errorUpper)})${a.pado.guaranteed ? ', guaranteed too' : ', not guaranteed'}\n`;

/** The calibration of the judges with several samples per item, and the runs without. */
const calibrationText = (r: CalibrationPartDto) => {
  let text = "\nCalibration (confidence = share of the modal verdict among an item's samples):\n";
  for (const c of r.calibration)
    text +=
      `  ${c.judge} / ${c.criterion}: ${c.n} items, ${c.samplesMin === c.samplesMax ? c.samplesMin : `${c.samplesMin}–${c.samplesMax}`} samples each, ` +
      `accuracy ${pct(c.accuracy)}, mean confidence ${pct(c.meanConfidence)}, Brier ${num(c.brierTopLabel)}, ECE ${num(c.ece)} (equal mass ${num(c.adaptiveEce)})\n`;
  if (r.uncalibrated.length) text += `  ${r.uncalibrated.join(', ')}: ${UNCALIBRATED}\n`;
  return text;
};

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

/** A certification of either kind; a rubric one says which sample it read and whether it folded labels. */
function certifyText(r: CertifyReportDto, what = ''): string {
  let text =
    `Certifying "${r.judge}" on ${r.criterion}${what} against a target alignment of ${r.target} (study ${r.studyId}):\n` +
    `  ${r.agree} of ${r.n} ground-truth labels matched (${num(r.alignmentRate)}), ${r.unjudged} without a verdict\n` +
    `  anytime-valid 95 % bounds${ci(r.bounds) || ` — (${r.bounds.reason})`}\n` +
    `  decision: ${r.decision ? DECISION[r.decision] : `— (${r.decisionReason})`}` +
    (r.decision === 'keep_labelling' ? ` (about ${num(r.itemsNeeded, 0)} more items at the current rate)` : '') +
    '\n' +
    (r.drift ? '  the observed rate lies outside the bounds: the alignment changed along the settle order\n' : '') +
    activeText(r);
  text += `\nAlternative annotator test (ε ${r.altTest.epsilon}, items with ≥ ${r.altTest.minReviewers} reviewers):\n`;
  for (const c of r.altTest.criteria) {
    text +=
      `  ${c.criterion}: ${c.itemsUsed} items, ${c.annotatorsTested} annotator(s) tested, ω ${num(c.winningRate)}, ρ ${num(c.advantageProbability)} → ` +
      (c.judgeCanReplace === null
        ? `— (${c.judgeCanReplaceReason})`
        : c.judgeCanReplace
          ? 'the judge can replace an annotator'
          : 'the judge cannot replace an annotator') +
      '\n';
    for (const a of c.annotators)
      text += `    ${a.annotator}: ${a.items} items, ρ judge ${num(a.rhoJudge)}, ρ human ${num(a.rhoHuman)}, p ${num(a.pValue, 4)}, BY ${num(a.pAdjusted, 4)}${a.judgeWins ? ' (judge wins)' : ''}\n`;
  }
  return text;
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

  leaderboard: (r) => {
    let text = `Leaderboard of study ${r.studyId}, ties counted as: ${r.tiePolicy}\n`;
    for (const row of r.rows) {
      const principles = Object.entries(row.principleLevelAcc)
        .map(([p, s]) => `${p} ${num(s)}`)
        .join(', ');
      text +=
        `\n${row.model} — graded by ${row.grader} (${row.items} item(s))\n` +
        `  Overall Judgement ${withCi(row.overallJudgement, row.intervals.overallJudgement)}, Overall Acc ${withCi(row.overallAcc, row.intervals.overallAcc)}, ` +
        `General-Level Acc ${withCi(row.generalLevelAcc, row.intervals.generalLevelAcc)}\n` +
        (principles ? `  Principle-Level Acc: ${principles}\n` : '') +
        (row.alignmentRate.value === null
          ? ''
          : `  alignment with ground truth ${withCi(row.alignmentRate, row.intervals.alignmentRate)}\n`);
    }
    return text;
  },
  'rubric-leaderboard': (r) => {
    let text = `Share of desired labels per tutor, rubric study ${r.studyId} (judge sample ${r.sample})\n`;
    for (const row of r.rows) {
      text += `\n${row.model} — graded by ${row.grader} (${row.items} repl${row.items === 1 ? 'y' : 'ies'})\n`;
      for (const d of r.dimensions) {
        const lenient = row.lenient[d.id];
        text +=
          `  ${d.id}: ${pct(row.perCriterion[d.id])}${ci(row.intervals.perCriterion[d.id])}` +
          (lenient ? `, lenient ${pct(lenient)}${ci(row.intervals.lenient[d.id])}` : '') +
          '\n';
      }
    }
    return text;
  },

  hybrid: (r) => {
    let text = `Hybrid review plan for "${r.judge}" on ${r.criterion}, calibration sample of ${r.n} items (target ${pct({ value: r.target })})\n`;
    for (const c of r.classes)
      text += `  ${c.label}: predicted ${c.predicted}, correct ${c.correct}, class-wise accuracy ${pct(c.classwiseAccuracy)} → ${c.decision}\n`;
    text +=
      `judge alone ${pct(r.accJudge)}; review ${r.reviewed} item(s) → hybrid ${pct(r.accHybrid)}, effort saved ${pct(r.effortSaved)}\n` +
      (r.extraReviewsExpected
        ? `to reach the target: about ${r.extraReviewsExpected} more random review(s) of "${r.acceptedClass}" (worst case ${r.extraReviewsWorstCase}), effort saved then ${pct(r.effortSavedExpectedAfter)}\n`
        : 'the target is reached without further reviews\n');
    text += acceptanceText(r.acceptance);
    return text;
  },
  'rubric-hybrid': (r) => {
    let text = `Hybrid review plan for "${r.judge}" on ${r.criterion}${r.lenient ? ' (lenient)' : ''}, target ${pct({ value: r.target })}\n`;
    text += planLine('all tutors', r);
    text += acceptanceText(r.acceptance);
    for (const m of r.byModel) text += planLine(`  ${m.model}`, m);
    text += '\nEvery dimension:\n';
    for (const c of r.byCriterion) text += planLine(`  ${c.criterion}${c.lenient ? ' (lenient)' : ''}`, c);
    return text;
  },

  certify: (r) => certifyText(r),
  'rubric-certify': (r) => certifyText(r, ` (judge sample ${r.sample}${r.lenient ? ', labels folded leniently' : ''})`),

  bias: (r) => {
    let text = `Biases in study ${r.studyId}\n\nJudge position bias (items judged in both orders):\n`;
    for (const j of r.judgePosition)
      text += `  ${j.judge} / ${j.criterion}: ${j.itemsBothOrders} of ${j.items} items in both orders, flip rate ${num(j.flipRate)}, first shown preferred ${num(j.firstPreferred.rate)}${ci(j.firstPreferred.interval)}\n`;
    text += '\nReviewers preferring the reply shown first:\n';
    if (r.humanPositionReason) text += `  — (${r.humanPositionReason})\n`;
    for (const h of r.humanPosition)
      text += `  ${h.criterion} / ${h.reviewer ?? 'all reviewers'}: ${num(h.firstPreferred.rate)}${ci(h.firstPreferred.interval)} of ${h.firstPreferred.decisive} decisive labels, p ${num(h.firstPreferred.pValue, 4)}\n`;
    text += '\nLength bias (logistic slope of a winning on sign(d)·ln(1 + |d|)):\n';
    for (const l of r.length)
      text += `  ${l.grader} / ${l.criterion}: ${l.n} items, slope ${num(l.slope)}${ci(l.intervals.slope)}, p ${num(l.pValue, 4)}\n`;
    return text + calibrationText(r);
  },
  'rubric-bias': (r) => {
    const desired = r.lenient ? 'the desired label or one folded into it' : 'the desired label';
    let text = `Biases in rubric study ${r.studyId} (judge sample ${r.sample}; "desired" is ${desired})\n\n`;
    text += 'Leniency: share of desired labels, judge vs ground truth on the same replies (McNemar exact test):\n';
    if (!r.leniency.length) text += '  — (no judge verdict on a reply with ground truth)\n';
    for (const l of r.leniency)
      text +=
        `  ${l.judge} / ${l.criterion}: ${l.n} replies, judge ${num(l.judgeShare)} vs ground truth ${num(l.groundTruthShare)}; ` +
        `${l.judgeOnly} desired only by the judge, ${l.groundTruthOnly} only by the ground truth, p ${num(l.judgeMoreLenient.pValue, 4)}\n`;
    text += '\nLength bias (logistic slope of the desired label on ln(1 + reply length)):\n';
    if (r.lengthReason) text += `  — (${r.lengthReason})\n`;
    for (const l of r.length)
      text += `  ${l.grader} / ${l.criterion}: ${l.n} replies, slope ${num(l.slope)}${ci(l.intervals.slope)}, p ${num(l.pValue, 4)}\n`;
    return text + calibrationText(r);
  },
};
