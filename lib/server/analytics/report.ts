import 'server-only';
import * as z from 'zod';
import { ALL_KINDS, studyKind } from '@/lib/kinds/registry';
import type { StudyKind } from '@/lib/validation/labels';
import type { Actor } from '../actor';
import { invalid } from '../errors';
import { getDb } from '@/db/client';
import { agreementReport, rubricAgreementReport } from './agreement';
import { annotatorsReport } from './annotators';
import { excludedLabels } from './annotators-exclusions';
import { alignmentReport } from './alignment';
import { biasReport } from './bias';
import { certifyReport } from './certify';
import { type ExcludedLabelsDto, type ReportDtos, type ReportName, type ReportRole, REPORT_TABLES } from './dto';
import { hybridReport } from './hybrid';
import { goldAccuracy } from '../review/gold';
import { leaderboardReport } from './leaderboard';

/*
 * The report registry: every report by name, the dashboard it serves, the options it reads, its compute function and
 * its tables (the names in dto/reports.ts, the column specs where written as data). The route, the report process,
 * the pages and the CLI all go through here; which report a study gets is its kind's (`studyKind(kind).reports`).
 */

/** A report's options as they come from a query string or the command line; each use-case parses its own values. */
export type ReportOptions = {
  judge?: string;
  criterion?: string;
  target?: string;
  epsilon?: string;
  /** Error-bounded acceptance: the chance its certificate is wrong (ε is `epsilon`). */
  delta?: string;
  tiePolicy?: string;
  bootstrap?: string;
  /** Rubric studies: the judge sample to read (1 by default) and whether the hybrid plan folds labels leniently. */
  sample?: string;
  lenient?: string;
};

/** Any one option as given: the use-case parses and checks its value (numbers, ranges, known names). */
const given = z.string().optional();
const OPTIONS = z.object({
  judge: given,
  criterion: given,
  target: given,
  epsilon: given,
  delta: given,
  tiePolicy: given,
  bootstrap: given,
  sample: given,
  lenient: given,
});
type OptionName = keyof ReportOptions;
const takes = (...names: OptionName[]) =>
  OPTIONS.pick(Object.fromEntries(names.map((n) => [n, true])) as Partial<Record<OptionName, true>>);

type Entry<R extends ReportName> = {
  role: ReportRole;
  /** The options the report reads; others are dropped before it runs (and refused by the CLI). */
  options: z.ZodObject;
  compute: (actor: Actor, studyId: number, o: ReportOptions) => ReportDtos[R];
  tables: (typeof REPORT_TABLES)[R];
};

/** Every report by name: a report added to ReportName without an entry here does not compile. */
export const REPORTS: { [R in ReportName]: Entry<R> } = {
  agreement: {
    role: 'agreement',
    options: takes('bootstrap'),
    compute: (actor, studyId, o) => agreementReport(actor, studyId, { bootstrap: o.bootstrap }),
    tables: REPORT_TABLES.agreement,
  },
  alignment: {
    role: 'alignment',
    options: takes('judge', 'bootstrap'),
    compute: (actor, studyId, o) => alignmentReport(actor, studyId, 'alignment', { judge: o.judge ?? '', bootstrap: o.bootstrap }),
    tables: REPORT_TABLES.alignment,
  },
  leaderboard: {
    role: 'leaderboard',
    options: takes('tiePolicy', 'bootstrap'),
    compute: (actor, studyId, o) => leaderboardReport(actor, studyId, { tiePolicy: o.tiePolicy, bootstrap: o.bootstrap }),
    tables: REPORT_TABLES.leaderboard,
  },
  hybrid: {
    role: 'hybrid',
    options: takes('judge', 'criterion', 'target', 'epsilon', 'delta'),
    compute: (actor, studyId, o) =>
      hybridReport(
        actor,
        studyId,
        { judge: o.judge ?? '', criterion: o.criterion, target: o.target, epsilon: o.epsilon, delta: o.delta },
        'pairwise',
      ),
    tables: REPORT_TABLES.hybrid,
  },
  certify: {
    role: 'certify',
    options: takes('judge', 'criterion', 'target', 'epsilon'),
    compute: (actor, studyId, o) =>
      certifyReport(actor, studyId, { judge: o.judge ?? '', criterion: o.criterion, target: o.target, epsilon: o.epsilon }),
    tables: REPORT_TABLES.certify,
  },
  bias: {
    role: 'bias',
    options: takes(),
    compute: (actor, studyId) => biasReport(actor, studyId, 'bias'),
    tables: REPORT_TABLES.bias,
  },
  'rubric-agreement': {
    role: 'agreement',
    options: takes('bootstrap'),
    compute: (actor, studyId, o) => rubricAgreementReport(actor, studyId, { bootstrap: o.bootstrap }),
    tables: REPORT_TABLES['rubric-agreement'],
  },
  'rubric-alignment': {
    role: 'alignment',
    options: takes('judge', 'sample', 'bootstrap'),
    compute: (actor, studyId, o) =>
      alignmentReport(actor, studyId, 'rubric-alignment', { judge: o.judge ?? '', sample: o.sample, bootstrap: o.bootstrap }),
    tables: REPORT_TABLES['rubric-alignment'],
  },
  'rubric-leaderboard': {
    role: 'leaderboard',
    options: takes('sample'),
    compute: (actor, studyId, o) => leaderboardReport(actor, studyId, { sample: o.sample }, 'rubric'),
    tables: REPORT_TABLES['rubric-leaderboard'],
  },
  'rubric-hybrid': {
    role: 'hybrid',
    options: takes('judge', 'criterion', 'target', 'epsilon', 'delta', 'lenient', 'sample'),
    compute: (actor, studyId, o) =>
      hybridReport(
        actor,
        studyId,
        {
          judge: o.judge ?? '',
          criterion: o.criterion,
          target: o.target,
          epsilon: o.epsilon,
          delta: o.delta,
          lenient: o.lenient,
          sample: o.sample,
        },
        'rubric',
      ),
    tables: REPORT_TABLES['rubric-hybrid'],
  },
  'rubric-certify': {
    role: 'certify',
    options: takes('judge', 'criterion', 'target', 'epsilon', 'lenient', 'sample'),
    compute: (actor, studyId, o) =>
      // The certification core with the rubric part: the DTO adds the kind, the sample and the folding.
      certifyReport(
        actor,
        studyId,
        { judge: o.judge ?? '', criterion: o.criterion, target: o.target, epsilon: o.epsilon, lenient: o.lenient, sample: o.sample },
        'rubric',
      ),
    tables: REPORT_TABLES['rubric-certify'],
  },
  'rubric-bias': {
    role: 'bias',
    options: takes('sample', 'lenient'),
    compute: (actor, studyId, o) => biasReport(actor, studyId, 'rubric-bias', { sample: o.sample, lenient: o.lenient }),
    tables: REPORT_TABLES['rubric-bias'],
  },
  gold: {
    role: 'gold',
    options: takes(),
    compute: (actor, studyId) => goldAccuracy(actor, studyId),
    tables: REPORT_TABLES.gold,
  },
  annotators: {
    role: 'annotators',
    options: takes(),
    compute: (actor, studyId) => annotatorsReport(actor, studyId),
    tables: REPORT_TABLES.annotators,
  },
};

/** The kinds of study a report serves, as their reports facets say. */
export const reportKinds = (name: ReportName): StudyKind[] =>
  ALL_KINDS.filter((k) => Object.values(k.reports.byRole).includes(name)).map((k) => k.id);

/** The names of the options a report reads. */
export const reportOptionNames = (name: ReportName): OptionName[] => Object.keys(REPORTS[name].options.shape) as OptionName[];

/** The report that serves a dashboard for a kind of study, or null when the kind has none. */
export const reportFor = (kind: StudyKind, role: ReportRole): ReportName | null => studyKind(kind).reports.byRole[role] ?? null;

/** As `reportFor`, refusing a kind without the report. */
export function requireReportFor(kind: StudyKind, role: ReportRole): ReportName {
  const name = reportFor(kind, role);
  if (!name) {
    const kinds = ALL_KINDS.filter((k) => k.reports.byRole[role]).map((k) => k.name.toLowerCase());
    throw invalid(`The ${role} report is for ${kinds.join(' and ')} studies.`);
  }
  return name;
}

/**
 * Computes one report, synchronously, in this process (the CLI, the report process, point estimates), with the
 * labels the study's exclusions left out of it (decision 0029), so every report says how many and whose.
 */
export function computeReport<R extends ReportName>(
  actor: Actor,
  studyId: number,
  name: R,
  o: ReportOptions,
): ReportDtos[R] & { excluded: ExcludedLabelsDto } {
  const entry = REPORTS[name] as Entry<R> | undefined;
  if (!entry) throw new Error(`unknown report ${String(name)}`);
  const report = entry.compute(actor, studyId, o);
  return { ...report, excluded: excludedLabels(getDb(), studyId) };
}
