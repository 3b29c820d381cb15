import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import type { ReportDtos, ReportName } from './dto';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { type ChildAnswer, unwrapAnswer } from '../imports/child-process';
import { replicatesSchema } from './data';
import { computeReport, reportKinds, type ReportOptions } from './report';
import { reportWorker } from './report-worker';
import { staffStudyOfKind, studyForStaff } from '../review/access';

const CHILD = 'report-child';
/**
 * A report child only reads, so it can yield the CPU to the server without holding anyone up: with two cores and
 * annotators submitting, the bootstrap then takes what the server leaves.
 */
const CHILD_NICE = 10;

/** Reports computed by child processes at the same time; more wait their turn (the server has two cores). */
const MAX_RUNNING = 1;
let running = 0;
const waiting: (() => void)[] = [];

async function turn<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

const bootstrapOnly = z.object({ bootstrap: replicatesSchema });

/** The reports that have bootstrap intervals; the others are computed here at once. */
const REPORTS_WITH_BOOTSTRAP: ReadonlySet<ReportName> = new Set<ReportName>([
  'agreement',
  'alignment',
  'leaderboard',
  'rubric-agreement',
  'rubric-alignment',
]);

/**
 * Reports that read every label row of a study in order (the settle order, the display order of each label): a few
 * seconds on a million labels, so always computed by the child, even without a bootstrap. The annotator report
 * too: its EM models (Dawid–Skene, MACE) take seconds per criterion on a few thousand items.
 */
const REPORTS_IN_OWN_PROCESS: ReadonlySet<ReportName> = new Set<ReportName>([
  'certify',
  'bias',
  'rubric-certify',
  'rubric-bias',
  'annotators',
]);

/**
 * A report for a request of the web server. Point estimates take well under a second even on a million labels
 * and are computed here; the certify and bias reports, and a report with bootstrap intervals (thousands of
 * resamples, seconds of CPU), are computed by the server's report process (`report-worker.ts`: started once and
 * kept, the same code and seed, so the same numbers), one at a time, while this process goes on answering everyone
 * else. Bad options and missing rights are refused here, before any job is sent; the report process checks them
 * again.
 */
export async function reportForRequest<R extends ReportName>(
  actor: Actor,
  studyId: number,
  name: R,
  options: ReportOptions,
  signal?: AbortSignal,
): Promise<ReportDtos[R]> {
  // A report of one kind refuses the other kinds in words; one that serves several (annotators) checks the rest itself.
  const kinds = reportKinds(name);
  if (kinds.length === 1) staffStudyOfKind(getDb(), actor, studyId, kinds[0], 'This report');
  else studyForStaff(getDb(), actor, studyId);
  const replicates = !REPORTS_WITH_BOOTSTRAP.has(name) ? 0 : parseInput(bootstrapOnly, { bootstrap: options.bootstrap }).bootstrap;
  if (replicates === 0 && !REPORTS_IN_OWN_PROCESS.has(name)) return computeReport(actor, studyId, name, options);
  const job = { userId: actor.id, studyId, name, options };
  return turn(async () => unwrapAnswer(CHILD, await reportWorker(CHILD_NICE).run<ChildAnswer<ReportDtos[R]>>(job, signal)));
}

/** Starts the report process if it is not running (a dashboard is open: intervals will be asked for next). */
export function warmReportProcess() {
  reportWorker(CHILD_NICE).warm();
}
