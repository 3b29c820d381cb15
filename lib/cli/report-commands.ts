import fs from 'node:fs';
import path from 'node:path';
import { agreementReport } from '@/lib/server/analytics/agreement';
import { alignmentReport } from '@/lib/server/analytics/alignment';
import type { AlignmentSummaryDto, VoteAgreementDto } from '@/lib/server/analytics/dto';
import { hybridReport } from '@/lib/server/analytics/hybrid';
import { leaderboardReport } from '@/lib/server/analytics/leaderboard';
import { invalid } from '@/lib/server/errors';
import { importJudge } from '@/lib/server/imports/judge-import';
import { parseStudyId } from '@/lib/server/studies/studies';
import { cliActor } from '@/lib/server/system/system';
import {
  isRubricStudy,
  rubricAgreementCommand,
  rubricAlignmentCommand,
  rubricHybridCommand,
  rubricLeaderboardCommand,
} from './rubric-report-commands';
import type { Command } from './commands';
import { num, out, pct, printJson, required, str, withCi } from './format';


function existingFile(file: string | undefined): string {
  if (!file) throw invalid('Name the file to import.');
  const resolved = path.resolve(file);
  if (!fs.existsSync(resolved)) throw invalid(`No such file: ${file}`);
  return resolved;
}


/* ----- plain-text rendering ----- */


function summaryLine(label: string, s: AlignmentSummaryDto) {
  return (
    `${label}: n ${s.n}, alignment ${withCi(s.alignmentRate, s.intervals.alignmentRate)}, ` +
    `without ties ${withCi(s.alignmentRateNoTies, s.intervals.alignmentRateNoTies)} (n ${s.nNoTies}), κ ${withCi(s.cohenKappa, s.intervals.cohenKappa)}\n`
  );
}

const votesLine = (label: string, v: VoteAgreementDto) =>
  `${label}: ${withCi(v.agreement, v.intervals.agreement)} of ${v.n} votes; without ties ${withCi(v.agreementNoTies, v.intervals.agreementNoTies)} of ${v.nNoTies}\n`;

const common = { study: { type: 'string' }, bootstrap: { type: 'string' }, json: { type: 'boolean' } } as const;

export const REPORT_COMMANDS: Command[] = [
  {
    name: 'report agreement',
    usage: 'report agreement --study STUDY [--bootstrap 1000] [--json]',
    summary:
      'Inter-annotator agreement before adjudication per criterion and macro: percent agreement, Fleiss κ, Krippendorff α,\n' +
      '      Cohen κ per annotator pair, with 95 % intervals (item bootstrap with B replicates; 0 = none).',
    options: common,
    run(v) {
      const studyId = parseStudyId(required(v, 'study'));
      if (isRubricStudy(studyId)) return rubricAgreementCommand(v, studyId);
      const r = agreementReport(cliActor(), studyId, { bootstrap: str(v, 'bootstrap') });
      if (v.json) return printJson(r);
      let text = `Agreement before adjudication, study ${r.studyId} (bootstrap ${r.bootstrap.replicates} replicates, seed ${r.bootstrap.seed})\n`;
      for (const c of r.criteria) {
        text +=
          `\n${c.criterion} (${c.name}): ${c.items} items, ${c.ratings} labels\n` +
          `  percent agreement ${withCi(c.percentAgreement, c.intervals.percentAgreement)}\n` +
          `  Fleiss κ ${withCi(c.fleissKappa, c.intervals.fleissKappa)}\n` +
          `  Krippendorff α nominal ${withCi(c.krippendorffAlphaNominal, c.intervals.krippendorffAlphaNominal)}, ordinal ${withCi(c.krippendorffAlphaOrdinal, c.intervals.krippendorffAlphaOrdinal)}\n`;
        for (const p of c.pairs) {
          text +=
            `  ${p.annotators[0]} × ${p.annotators[1]}: ${p.items} items, agreement ${withCi(p.percentAgreement, p.intervals.percentAgreement)}, ` +
            `κ ${withCi(p.cohenKappa, p.intervals.cohenKappa)}, linear ${num(p.cohenKappaLinear)}, quadratic ${num(p.cohenKappaQuadratic)}\n`;
        }
      }
      const m = r.macro;
      text +=
        `\nmacro (mean over criteria): percent agreement ${withCi(m.percentAgreement, m.intervals.percentAgreement)}, Fleiss κ ${withCi(m.fleissKappa, m.intervals.fleissKappa)}, ` +
        `α nominal ${withCi(m.krippendorffAlphaNominal, m.intervals.krippendorffAlphaNominal)}, α ordinal ${withCi(m.krippendorffAlphaOrdinal, m.intervals.krippendorffAlphaOrdinal)}\n`;
      out(text);
    },
  },
  {
    name: 'report alignment',
    usage: 'report alignment --study STUDY --judge NAME [--sample 1] [--bootstrap 1000] [--json]',
    summary:
      'How well a judge run matches ground truth: alignment rate (± ties), Cohen κ, confusion matrix, per criterion, principle and model;\n' +
      '      rubric studies: accuracy, macro-F1, class-wise accuracy and recall, strict and lenient, per dimension, tutor and tutor × dimension.',
    options: { ...common, judge: { type: 'string' }, sample: { type: 'string' } },
    run(v) {
      const studyId = parseStudyId(required(v, 'study'));
      if (isRubricStudy(studyId)) return rubricAlignmentCommand(v, studyId, required(v, 'judge'));
      const r = alignmentReport(cliActor(), studyId, {
        judge: required(v, 'judge'),
        bootstrap: str(v, 'bootstrap'),
      });
      if (v.json) return printJson(r);
      let text =
        `Judge "${r.judge}" against ground truth (${r.groundTruthRule}) in study ${r.studyId}: ${r.groundTruth.labels} ground-truth labels, ` +
        `${r.unjudged} without a verdict, ${r.groundTruth.incompleteItems} item(s) not settled, ${r.unparsedVerdicts} unreadable verdict(s)\n\n` +
        summaryLine('overall', r.overall) +
        `confusion (rows = ground truth, columns = judge; lose, tie, win):\n${r.overall.confusion.map((row, k) => `  ${r.labelSet[k].padEnd(4)} ${row.map((x) => String(x).padStart(6)).join('')}\n`).join('')}\n`;
      for (const c of r.byCriterion) text += summaryLine(`criterion ${c.criterion}`, c);
      for (const p of r.byPrinciple) text += summaryLine(`principle ${p.principle}`, p);
      for (const m of r.byModel) text += summaryLine(`model ${m.model}`, m);
      text += '\n';
      for (const a of r.judgeVsAnnotators) text += votesLine(`judge vs ${a.annotator}`, a);
      text += votesLine('judge vs all human votes', r.judgeVsHuman) + votesLine('human vs human', r.humanVsHuman);
      const pc = r.positionConsistency;
      text +=
        'n' in pc
          ? `position consistency: ${withCi(pc.rate, pc.interval)} (${pc.consistent} of ${pc.n})\n`
          : `position consistency: — (${pc.reason})\n`;
      out(text);
    },
  },
  {
    name: 'report leaderboard',
    usage: 'report leaderboard --study STUDY [--tie-policy half|non_win|exclude] [--sample 1] [--bootstrap 1000] [--json]',
    summary:
      'KMP-Bench leaderboard per model and grader (ground truth, each judge run): win rates per criterion and their aggregates;\n' +
      '      rubric studies: share of desired labels per tutor and dimension (strict, lenient), judge-corrected shares.',
    options: { ...common, 'tie-policy': { type: 'string', default: 'half' }, sample: { type: 'string' } },
    run(v) {
      const studyId = parseStudyId(required(v, 'study'));
      if (isRubricStudy(studyId)) return rubricLeaderboardCommand(v, studyId);
      const r = leaderboardReport(cliActor(), studyId, {
        tiePolicy: str(v, 'tie-policy'),
        bootstrap: str(v, 'bootstrap'),
      });
      if (v.json) return printJson(r);
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
      out(text);
    },
  },
  {
    name: 'report hybrid',
    usage: 'report hybrid --study STUDY --judge NAME [--criterion overall] [--target 0.95] [--lenient] [--sample 1] [--json]',
    summary: "Padó's hybrid review plan for a judge run: which predicted classes to accept, which to review, accuracy and effort saved.",
    options: {
      study: { type: 'string' },
      judge: { type: 'string' },
      criterion: { type: 'string' },
      target: { type: 'string' },
      lenient: { type: 'boolean' },
      sample: { type: 'string' },
      json: { type: 'boolean' },
    },
    run(v) {
      const studyId = parseStudyId(required(v, 'study'));
      if (isRubricStudy(studyId)) return rubricHybridCommand(v, studyId, required(v, 'judge'));
      const r = hybridReport(cliActor(), studyId, {
        judge: required(v, 'judge'),
        criterion: str(v, 'criterion'),
        target: str(v, 'target'),
      });
      if (v.json) return printJson(r);
      let text = `Hybrid review plan for "${r.judge}" on ${r.criterion}, calibration sample of ${r.n} items (target ${pct({ value: r.target })})\n`;
      for (const c of r.classes)
        text += `  ${c.label}: predicted ${c.predicted}, correct ${c.correct}, class-wise accuracy ${pct(c.classwiseAccuracy)} → ${c.decision}\n`;
      text +=
        `judge alone ${pct(r.accJudge)}; review ${r.reviewed} item(s) → hybrid ${pct(r.accHybrid)}, effort saved ${pct(r.effortSaved)}\n` +
        (r.extraReviewsExpected
          ? `to reach the target: about ${r.extraReviewsExpected} more random review(s) of "${r.acceptedClass}" (worst case ${r.extraReviewsWorstCase}), effort saved then ${pct(r.effortSavedExpectedAfter)}\n`
          : 'the target is reached without further reviews\n');
      out(text);
    },
  },
  {
    name: 'import judge',
    usage: 'import judge --study STUDY [--judge NAME] [--format concord|pandalm|aitutor-evalkit] FILE',
    summary:
      'Imports one LLM-judge run (JSON Lines, a PandaLM judge file, or an AITutor-EvalKit predictions file). --judge names the run\n' +
      '      (default: the name in the file; for AITutor-EvalKit it picks the judge inside the file); unreadable verdicts are left out\n' +
      '      and listed, never guessed. Rubric lines may carry "sample": N (each sample a verdict set of its own).',
    options: {
      study: { type: 'string' },
      judge: { type: 'string' },
      format: { type: 'string', default: 'concord' },
      json: { type: 'boolean' },
    },
    run(v, [file]) {
      const r = importJudge(cliActor(), parseStudyId(required(v, 'study')), existingFile(file), str(v, 'format')!, str(v, 'judge'));
      if (v.json) return printJson(r);
      out(`Imported judge run "${r.run}": ${r.labels} label(s) from ${r.records} record(s).\n`);
      if (r.unparsed.length) {
        out(`${r.unparsed.length} unreadable verdict(s) left out:\n`);
        for (const u of r.unparsed) out(`  line ${u.line}, item ${u.item}: ${u.message}\n`);
      }
    },
  },
];
