import fs from 'node:fs';
import path from 'node:path';
import type { ExcludedLabelsDto, ReportRole } from '@/lib/server/analytics/dto';
import { REPORTS, type ReportOptions, computeReport, reportKinds, reportOptionNames, requireReportFor } from '@/lib/server/analytics/report';
import { invalid } from '@/lib/server/errors';
import { importJudge } from '@/lib/server/imports/judge-import';
import { getStudy, parseStudyId } from '@/lib/server/studies/studies';
import { kindName } from '@/lib/kinds/names';
import { cliActor } from '@/lib/server/system/system';
import type { Command } from './commands';
import { type Values, out, printJson, required, str } from './format';
import { REPORT_TEXT } from './report-text';

/*
 * `concord report <dashboard>`: one command per dashboard, whatever the kind of study. The study's kind says which
 * report serves it (lib/kinds/<kind>/reports.ts); the report registry computes it (lib/server/analytics/report.ts),
 * as the web app's route does; the text is the report's (report-text.ts), the JSON the route's.
 */

function existingFile(file: string | undefined): string {
  if (!file) throw invalid('Name the file to import.');
  const resolved = path.resolve(file);
  if (!fs.existsSync(resolved)) throw invalid(`No such file: ${file}`);
  return resolved;
}

/** The report options as the command line gives them (`--tie-policy`, the switch `--lenient`). */
const reportOptions = (v: Values): ReportOptions => ({
  judge: str(v, 'judge'),
  criterion: str(v, 'criterion'),
  target: str(v, 'target'),
  epsilon: str(v, 'epsilon'),
  delta: str(v, 'delta'),
  tiePolicy: str(v, 'tie-policy'),
  bootstrap: str(v, 'bootstrap'),
  sample: str(v, 'sample'),
  lenient: v.lenient === true ? 'true' : undefined,
});

const FLAG: Record<string, string> = { tiePolicy: 'tie-policy' };

type ReportCommand = Omit<Command, 'run' | 'name'> & {
  role: ReportRole;
  /** Options the command cannot do without. */
  required?: string[];
  /**
   * Refuse the options that only another kind's report reads, instead of ignoring them (certify and bias, whose
   * kind-specific options change what is measured).
   */
  refuseOthers?: boolean;
};

/** The options some report of the dashboard reads and this one does not, in the command's order. */
function othersGiven(c: ReportCommand, name: keyof typeof REPORTS): { flags: string[]; kinds: string[] } {
  const mine = new Set(reportOptionNames(name).map((o) => FLAG[o] ?? o));
  const siblings = (Object.keys(REPORTS) as (keyof typeof REPORTS)[]).filter((r) => REPORTS[r].role === c.role && r !== name);
  const flags = Object.keys(c.options ?? {}).filter(
    (f) => !mine.has(f) && siblings.some((r) => reportOptionNames(r).some((o) => (FLAG[o] ?? o) === f)),
  );
  const kinds = siblings.filter((r) => reportOptionNames(r).some((o) => flags.includes(FLAG[o] ?? o))).flatMap(reportKinds);
  return { flags, kinds: kinds.map((k) => kindName(k).toLowerCase()) };
}

/** What every report's text ends with when the study excludes annotators: the labels left out, and whose. */
const excludedText = (x: ExcludedLabelsDto) =>
  x.annotators.length
    ? `\nLeft out: ${x.labels} label(s) of excluded annotator(s) ${x.annotators.map((a) => `${a.username} (${a.labels})`).join(', ')}.\n`
    : '';

function reportCommand(c: ReportCommand): Command {
  return {
    ...c,
    name: `report ${c.role}`,
    run(v) {
      const studyId = parseStudyId(required(v, 'study'));
      const name = requireReportFor(getStudy(cliActor(), studyId).kind, c.role);
      for (const key of c.required ?? []) required(v, key);
      if (c.refuseOthers) {
        const { flags, kinds } = othersGiven(c, name);
        if (flags.some((f) => v[f] !== undefined && v[f] !== false))
          throw invalid(`${flags.map((f) => `--${f}`).join(' and ')} ${flags.length > 1 ? 'are' : 'is'} for ${kinds.join(' and ')} studies.`);
      }
      const report = computeReport(cliActor(), studyId, name, reportOptions(v));
      if (v.json) return printJson(report);
      out((REPORT_TEXT[name] as (r: typeof report) => string)(report));
      out(excludedText(report.excluded));
    },
  };
}


const common = { study: { type: 'string' }, json: { type: 'boolean' } } as const;
const judged = { judge: { type: 'string' }, criterion: { type: 'string' }, target: { type: 'string' } } as const;
const rubricOnly = { lenient: { type: 'boolean' }, sample: { type: 'string' } } as const;

/** One command per dashboard, in the order `concord --help` lists them. */
export const REPORT_COMMANDS: Command[] = [
  reportCommand({
    role: 'agreement',
    usage: 'report agreement --study STUDY [--bootstrap 1000] [--json]',
    summary:
      'Inter-annotator agreement before adjudication per criterion and macro: percent agreement, Fleiss κ, Krippendorff α,\n' +
      '      Cohen κ per annotator pair, with 95 % intervals (item bootstrap with B replicates; 0 = none).',
    options: { ...common, bootstrap: { type: 'string' } },
  }),
  reportCommand({
    role: 'alignment',
    usage: 'report alignment --study STUDY --judge NAME [--sample 1] [--bootstrap 1000] [--json]',
    summary:
      'How well a judge run matches ground truth: alignment rate (± ties), Cohen κ, confusion matrix, per criterion, principle and model;\n' +
      '      rubric studies: accuracy, macro-F1, class-wise accuracy and recall, strict and lenient, per dimension, tutor and tutor × dimension.',
    options: { ...common, bootstrap: { type: 'string' }, judge: { type: 'string' }, sample: { type: 'string' } },
    required: ['judge'],
  }),
  reportCommand({
    role: 'leaderboard',
    usage: 'report leaderboard --study STUDY [--tie-policy half|non_win|exclude] [--sample 1] [--bootstrap 1000] [--json]',
    summary:
      'KMP-Bench leaderboard per model and grader (ground truth, each judge run): win rates per criterion and their aggregates;\n' +
      '      rubric studies: share of desired labels per tutor and dimension (strict, lenient), judge-corrected shares.',
    options: { ...common, bootstrap: { type: 'string' }, 'tie-policy': { type: 'string', default: 'half' }, sample: { type: 'string' } },
  }),
  reportCommand({
    role: 'hybrid',
    usage:
      'report hybrid --study STUDY --judge NAME [--criterion overall] [--target 0.95] [--epsilon 0.05] [--delta 0.05] [--lenient] [--sample 1] [--json]',
    summary:
      "Padó's hybrid review plan for a judge run: which predicted classes to accept, which to review, accuracy and effort saved;\n" +
      '      beside it, the classes accepted with a guarantee: error rate below --epsilon with probability 1 − --delta (Holm).',
    options: { ...common, ...judged, epsilon: { type: 'string' }, delta: { type: 'string' }, ...rubricOnly },
    required: ['judge'],
  }),
  reportCommand({
    role: 'certify',
    usage:
      'report certify --study STUDY --judge NAME [--criterion overall] [--target 0.9] [--epsilon 0.2] [--lenient] [--sample 1] [--json]',
    summary:
      'Certifies a judge run while people label: anytime-valid 95 % bounds on its alignment with ground truth (items in the\n' +
      '      order their ground truth was settled), certified / refuted / keep labelling; and the alternative annotator test.\n' +
      '      Rubric studies: --criterion names a dimension (the first by default), --lenient folds labels, --sample picks one.',
    options: { ...common, ...judged, epsilon: { type: 'string' }, ...rubricOnly },
    required: ['judge'],
    refuseOthers: true,
  }),
  reportCommand({
    role: 'bias',
    usage: 'report bias --study STUDY [--lenient] [--sample 1] [--json]',
    summary:
      'Position bias of each judge run (verdicts in both orders) and of the reviewers (stored display order), and length\n' +
      '      bias of the ground truth and of each judge run (win share by length-difference quintile, logistic slope).\n' +
      "      Rubric studies: each judge run's leniency against the ground truth, and the length bias of the desired label.",
    options: { ...common, ...rubricOnly },
    refuseOthers: true,
  }),
  reportCommand({
    role: 'gold',
    usage: 'report gold --study STUDY [--json]',
    summary:
      "Each reviewer's accuracy on the study's gold items (items with a known answer), with a 95 % Wilson interval, and\n" +
      "      whether it is under the lead's threshold.",
    options: common,
  }),
  reportCommand({
    role: 'annotators',
    usage: 'report annotators --study STUDY [--json]',
    summary:
      'Annotator quality per annotator and criterion (dimension): accuracy and Cohen κ against the ground truth without their own\n' +
      '      vote, agreement with the others, Dawid–Skene and MACE competence, straight-lining, position bias, active time.',
    options: { ...common },
  }),
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
