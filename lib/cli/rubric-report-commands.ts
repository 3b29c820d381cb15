import type { RubricAlignmentSummaryDto, RubricSummaryDto, StatDto } from '@/lib/server/analytics/dto';
import { rubricAgreementReport } from '@/lib/server/analytics/rubric-agreement';
import { rubricAlignmentReport } from '@/lib/server/analytics/rubric-alignment';
import { rubricHybridReport } from '@/lib/server/analytics/rubric-hybrid';
import { rubricLeaderboardReport } from '@/lib/server/analytics/rubric-leaderboard';
import { getStudy } from '@/lib/server/studies/studies';
import { cliActor } from '@/lib/server/system/system';
import { ci, num, out, pct, printJson, str, withCi } from './format';

/*
 * `report agreement|alignment|leaderboard|hybrid` on a rubric study: the same commands as for pairwise studies
 * (lib/cli/report-commands.ts asks `isRubricStudy` first), with the rubric reports' JSON and a plain-text summary.
 */

type Values = Record<string, string | boolean | undefined>;


/** Whether the study is a rubric study (the CLI's reports then read it as one). */
export const isRubricStudy = (studyId: number) => getStudy(cliActor(), studyId).kind === 'rubric';

function summaryText(label: string, s: RubricSummaryDto): string {
  const classes = s.classwise.map((c) => `${c.label} ${num(c.accuracy)}/${num(c.recall)}`).join(', ');
  return (
    `${label}: n ${s.n}, accuracy ${withCi(s.alignmentRate, s.intervals.alignmentRate)}, macro-F1 ${num(s.macroF1)}, κ ${withCi(s.cohenKappa, s.intervals.cohenKappa)}\n` +
    (classes ? `    class-wise accuracy/recall: ${classes}\n` : '')
  );
}

const bothText = (label: string, s: RubricAlignmentSummaryDto) =>
  summaryText(label, s) + (s.lenient ? summaryText(`${label} (lenient)`, s.lenient) : '');

export function rubricAgreementCommand(v: Values, studyId: number) {
  const r = rubricAgreementReport(cliActor(), studyId, { bootstrap: str(v, 'bootstrap') });
  if (v.json) return printJson(r);
  let text = `Agreement before adjudication, rubric study ${r.studyId} (bootstrap ${r.bootstrap.replicates} replicates, seed ${r.bootstrap.seed})\n`;
  for (const c of r.criteria) {
    text +=
      `\n${c.criterion} (${c.name}; ${c.labels.join(' < ')}): ${c.items} items, ${c.ratings} labels\n` +
      `  percent agreement ${withCi(c.percentAgreement, c.intervals.percentAgreement)}, Fleiss κ ${withCi(c.fleissKappa, c.intervals.fleissKappa)}\n` +
      `  Krippendorff α nominal ${withCi(c.krippendorffAlphaNominal, c.intervals.krippendorffAlphaNominal)}, ordinal ${withCi(c.krippendorffAlphaOrdinal, c.intervals.krippendorffAlphaOrdinal)}\n`;
    for (const p of c.pairs)
      text += `  ${p.annotators[0]} × ${p.annotators[1]}: ${p.items} items, κ ${withCi(p.cohenKappa, p.intervals.cohenKappa)}, linear ${num(p.cohenKappaLinear)}, quadratic ${num(p.cohenKappaQuadratic)}\n`;
  }
  out(text);
}

export function rubricAlignmentCommand(v: Values, studyId: number, judge: string) {
  const r = rubricAlignmentReport(cliActor(), studyId, { judge, sample: str(v, 'sample'), bootstrap: str(v, 'bootstrap') });
  if (v.json) return printJson(r);
  let text =
    `Judge "${r.judge}" (sample ${r.sample}) against ground truth (${r.groundTruthRule}) in rubric study ${r.studyId}: ` +
    `${r.groundTruth.labels} ground-truth labels, ${r.unjudged} without a verdict, ${r.groundTruth.incompleteItems} item(s) not settled\n\n` +
    bothText('overall', r.overall);
  for (const c of r.byCriterion) text += bothText(`dimension ${c.criterion}`, c);
  for (const m of r.byModel) {
    text += bothText(`tutor ${m.model}`, m);
    for (const c of m.byCriterion) text += bothText(`  ${m.model} × ${c.criterion}`, c);
  }
  out(text);
}

export function rubricLeaderboardCommand(v: Values, studyId: number) {
  const r = rubricLeaderboardReport(cliActor(), studyId, { sample: str(v, 'sample') });
  if (v.json) return printJson(r);
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
  out(text);
}

export function rubricHybridCommand(v: Values, studyId: number, judge: string) {
  const r = rubricHybridReport(cliActor(), studyId, {
    judge,
    sample: str(v, 'sample'),
    criterion: str(v, 'criterion'),
    target: str(v, 'target'),
    lenient: v.lenient === true,
  });
  if (v.json) return printJson(r);
  const line = (
    label: string,
    p: {
      n: number;
      accJudge: StatDto;
      accHybrid: StatDto;
      effortSaved: StatDto;
      extraReviewsExpected: number;
      acceptedClass: string | null;
    },
  ) =>
    `${label}: n ${p.n}, judge alone ${pct(p.accJudge)}, accept "${p.acceptedClass ?? '—'}" → hybrid ${pct(p.accHybrid)}, effort saved ${pct(p.effortSaved)}, ` +
    `extra reviews ${p.extraReviewsExpected}\n`;
  let text = `Hybrid review plan for "${r.judge}" on ${r.criterion}${r.lenient ? ' (lenient)' : ''}, target ${pct({ value: r.target })}\n`;
  text += line('all tutors', r);
  for (const m of r.byModel) text += line(`  ${m.model}`, m);
  text += '\nEvery dimension:\n';
  for (const c of r.byCriterion) text += line(`  ${c.criterion}${c.lenient ? ' (lenient)' : ''}`, c);
  out(text);
}
