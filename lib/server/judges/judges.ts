import 'server-only';
import { spawn, type ChildProcess } from 'node:child_process';
import { getDb, type Db } from '@/db/client';
import * as q from '@/db/queries/judge-launches';
import * as examplesQ from '@/db/queries/judge-examples';
import { judgeRunSummaries } from '@/db/queries/judge-runs';
import { countItems, type StudyRow } from '@/db/queries/studies';
import { unfilledMessage, unfilledPlaceholders } from '@/lib/kinds/judge-rules';
import { judgeLaunchByNameSchema } from '@/lib/validation/judge-launch';
import { judgeLaunchSchema, type JudgeTemplate } from '@/lib/validation/judge-template';
import * as z from 'zod';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { childCommand } from '../imports/child-process';
import { conflict, forbidden, invalid, notFound } from '../errors';
import { parseInput } from '../parse';
import { studyForStaff } from '../review/access';
import { isCommandLine } from '../system/system';
import type {
  JudgeRunStatusDto,
  JudgeTemplateDto,
  LaunchResultDto,
  StudyJudgeRunDto,
  TemplatePreviewDto,
  UnreadableAnswerDto,
} from './dto';
import { endpointForLaunch } from './endpoints';
import { canGrade } from './graded-kinds';
import { assertJudgeable, parseTemplate, planRequests, promptHash, renderRequest } from './plan';
import { runnerEnvironment, shownTextOf } from './run-endpoint';
import { STALE_MS, countRequests, processAlive } from './runner';
import { endRunnerProcess } from './runner-process';

/*
 * The use-cases of judges run from Concord, shared by the web app and the CLI: templates (versioned), launching
 * or resuming a run, pausing, resuming, cancelling, and its status. Leads and admins only, on every call.
 */

export const templateDto = (t: q.TemplateRow): JudgeTemplateDto => ({
  id: t.id,
  name: t.name,
  version: t.version,
  body: t.body,
  createdAt: new Date(t.createdAt).toISOString(),
});

/** Canonical text of a template, so that an unchanged template is recognised (and not made a new version). */
const templateText = (t: JudgeTemplate) => JSON.stringify(t);

function parseTemplateInput(body: unknown): JudgeTemplate {
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch (e) {
      throw invalid(`The template is not valid JSON: ${(e as Error).message}`, { template: 'is not valid JSON' });
    }
  }
  return parseTemplate(body);
}

/**
 * A template parsed for this study: refused when it uses placeholders the study's items leave empty (a pairwise
 * template on a rubric study sends "Candidate reply 1:" with nothing after it, and every answer is unreadable), so
 * the lead hears it before a single request is sent.
 */
function templateForStudy(db: Db, study: StudyRow, body: unknown): JudgeTemplate {
  const template = parseTemplateInput(body);
  const unfilled = unfilledPlaceholders(study.kind, template);
  if (unfilled.length) throw invalid(unfilledMessage(study.kind, unfilled), { template: 'uses placeholders this study does not fill' });
  if (template.examples) checkExamples(db, study, template.examples);
  return template;
}

/**
 * Worked examples name items of this study, which the comparison of runs then leaves out; a kind whose comparison
 * cannot leave items out has none (decision 0033).
 */
function checkExamples(db: Db, study: StudyRow, examples: NonNullable<JudgeTemplate['examples']>) {
  if (!canGrade(study))
    throw invalid('The judge runs of this kind of study cannot carry worked examples.', { template: 'has worked examples' });
  const named = [...new Set(examples.map((e) => e.item))];
  const known = examplesQ.itemIdsByExternalId(db, study.id, named);
  const unknown = named.filter((x) => !known.has(x));
  if (unknown.length)
    throw invalid(`The worked examples name items this study does not have: ${unknown.slice(0, 5).join(', ')}.`, {
      template: 'names unknown items',
    });
}

/**
 * Stores the template as the next version of its name, unless it equals a version already stored; returns that
 * version. An earlier version launched again stays that version (a run of version 2 made from a run's
 * disagreements says v2, not a copy numbered after later versions).
 */
export function storeTemplate(db: Db, actor: Actor, studyId: number, t: JudgeTemplate): q.TemplateRow {
  const same = q.templateWithBody(db, studyId, t.name, templateText(t));
  if (same) return same;
  const { id } = q.insertTemplateVersion(db, { studyId, name: t.name, body: templateText(t), createdBy: actor.id });
  return q.templateById(db, id)!;
}

export function saveJudgeTemplate(actor: Actor, studyId: number, body: unknown): JudgeTemplateDto {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  return templateDto(storeTemplate(db, actor, studyId, parseTemplateInput(body)));
}

export function listJudgeTemplates(actor: Actor, studyId: number): JudgeTemplateDto[] {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  return q.studyTemplates(db, studyId).map(templateDto);
}

/** The prompt a template gives for one item (the first, or the one named) and its first criterion, in order a, b. */
export function previewJudgeTemplate(
  actor: Actor,
  studyId: number,
  body: unknown,
  itemExternalId?: string | null,
  options: { random?: boolean } = {},
): TemplatePreviewDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  assertJudgeable(study);
  const template = templateForStudy(db, study, body);
  // A random item when asked: the lead sees the prompt on what the study holds without knowing an id by heart.
  const row =
    options.random && !itemExternalId ? q.randomItemForPreview(db, studyId) : q.itemForPreview(db, studyId, itemExternalId || null);
  if (!row) throw itemExternalId ? notFound(`The item "${itemExternalId}"`) : invalid('The study has no items to preview a prompt with.');
  const [first, ...rest] = [...planRequests(study, template, [row], { samples: 1, bothOrders: false })];
  if (!first) throw invalid(`The template judges none of the criteria of item "${row.externalId}".`);
  const messages = renderRequest(study, template, JSON.parse(row.payload) as unknown, first);
  return {
    item: row.externalId,
    criterion: first.criterion,
    swapped: false,
    messages,
    promptHash: promptHash(messages),
    requestsPerItem: rest.length + 1,
  };
}

/** A launch by a lead: an admin-configured endpoint by name (web app and CLI). Unknown fields are refused. */
const launchByNameInput = judgeLaunchByNameSchema.extend({ template: z.unknown() }).strict();
/** A launch at a URL named directly, with its key variable and prices: the command line only. */
const launchAtUrlInput = judgeLaunchSchema.extend({ template: z.unknown() });

/** What must be equal for a run of the same name to be resumed rather than refused. */
function sameRequests(l: q.LaunchRow, n: q.NewLaunch) {
  return (
    l.templateId === n.templateId &&
    l.endpointId === n.endpointId &&
    l.endpoint === n.endpoint &&
    l.model === n.model &&
    l.apiKeyEnv === n.apiKeyEnv &&
    l.temperatureMilli === n.temperatureMilli &&
    l.maxTokens === n.maxTokens &&
    l.seed === n.seed &&
    l.samples === n.samples &&
    l.bothOrders === n.bothOrders
  );
}

/** How many requests a launch sends in all, counted when it is started so its status is right before the runner claims it. */
function planSize(db: Db, study: StudyRow, template: JudgeTemplate, launch: q.NewLaunch) {
  return countRequests(db, study, template, launch.itemLimit, {
    samples: launch.samples,
    bothOrders: launch.bothOrders === 1,
  });
}

type RunParameters = z.output<typeof launchByNameInput>;
/** Where a launch sends its requests: a configured endpoint (`id`), or a URL the command line named (`id` null). */
type LaunchTarget = {
  id: number | null;
  label: string;
  url: string;
  keyEnv: string | null;
  priceIn: string | null;
  priceOut: string | null;
};

/**
 * Creates the judge run `name` of a study against an admin-configured endpoint chosen by name, with one of its
 * models (prices are the endpoint's), or resumes it when a run of that name was launched before with the same
 * template, endpoint, model and parameters (a resumed run sends only what has no answer yet). The caller then runs
 * it: the CLI in its own process, the web app in a runner process (`startJudgeRunner`).
 */
export function launchJudgeRun(actor: Actor, studyId: number, input: unknown): LaunchResultDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  assertJudgeable(study);
  const v = parseInput(launchByNameInput, input);
  const e = endpointForLaunch(db, v.endpoint, v.model);
  return launchAt(db, actor, study, v, {
    id: e.id,
    label: e.name,
    url: e.baseUrl,
    keyEnv: e.keyEnv,
    priceIn: e.priceIn,
    priceOut: e.priceOut,
  });
}

/**
 * The command line's launch at a URL it names directly, with the variable holding the key (issue 21: the CLI runs
 * on the server with the database in hand; the web app never calls this). The URL and variable obey the rules of a
 * configured endpoint: no query or fragment, no Concord or system variable.
 */
export function launchJudgeRunAtUrl(actor: Actor, studyId: number, input: unknown): LaunchResultDto {
  if (!isCommandLine(actor)) throw forbidden('Only the command line can name an endpoint URL; choose an endpoint an admin configured.');
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  assertJudgeable(study);
  const v = parseInput(launchAtUrlInput, input);
  const price = (p: number | undefined) => (p === undefined ? null : String(p));
  return launchAt(db, actor, study, v, {
    id: null,
    label: v.endpoint,
    url: v.endpoint,
    keyEnv: v.apiKeyEnv ?? null,
    priceIn: price(v.priceIn),
    priceOut: price(v.priceOut),
  });
}

function launchAt(db: Db, actor: Actor, study: StudyRow, v: RunParameters, target: LaunchTarget): LaunchResultDto {
  const studyId = study.id;
  const parsed = templateForStudy(db, study, v.template);
  const template = storeTemplate(db, actor, studyId, parsed);
  const launch: q.NewLaunch = {
    templateId: template.id,
    endpointId: target.id,
    endpoint: target.url,
    model: v.model,
    apiKeyEnv: target.keyEnv,
    temperatureMilli: v.temperature === undefined ? null : Math.round(v.temperature * 1000),
    maxTokens: v.maxTokens ?? null,
    seed: v.seed ?? null,
    samples: v.samples,
    bothOrders: v.bothOrders ? 1 : 0,
    concurrency: v.concurrency,
    itemLimit: v.limit ?? null,
    timeoutMs: v.timeoutMs,
    maxAttempts: v.maxAttempts,
    circuitAfter: v.circuitAfter,
    priceIn: target.priceIn,
    priceOut: target.priceOut,
  };
  const existing = q.runByName(db, studyId, v.name);
  if (existing) {
    if (!existing.launched) throw conflict(`The study already has an imported judge run "${v.name}"; choose another name.`);
    const l = q.findLaunch(db, existing.id)!;
    if (l.state === 'cancelled') throw conflict(`The judge run "${v.name}" was cancelled; start a run with another name.`);
    if (!sameRequests(l, launch))
      throw conflict(
        `The judge run "${v.name}" was started with another template version, endpoint, model or sampling; a run of the same name resumes it, so choose a new name.`,
      );
    q.updateLaunchSettings(db, existing.id, launch);
    q.setLaunchRequests(db, existing.id, planSize(db, study, parsed, launch));
    q.setLaunchState(db, existing.id, ['running', 'paused', 'circuit_open', 'done'], 'running', null);
    audit(db, { userId: actor.id, action: 'judge_run.resume', studyId, objectId: existing.id, detail: { name: v.name } });
    return { runId: existing.id, name: v.name, resumed: true };
  }
  const runId = q.insertLaunchedRun(
    db,
    { studyId, name: v.name, filename: `${template.name} v${template.version}`, createdBy: actor.id },
    launch,
    planSize(db, study, parsed, launch),
  );
  audit(db, {
    userId: actor.id,
    action: 'judge_run.launch',
    studyId,
    objectId: runId,
    detail: { name: v.name, model: v.model, endpoint: target.label, template: template.name, version: template.version },
  });
  return { runId, name: v.name, resumed: false };
}

function launchFor(db: Db, actor: Actor, runId: number) {
  const l = q.findLaunch(db, runId);
  if (!l) throw notFound('That judge run');
  studyForStaff(db, actor, l.studyId);
  return l;
}

/** The launched run of this name: in `studyId` when given, else the only run of that name. */
export function findJudgeRunId(actor: Actor, name: string, studyId?: number): number {
  const db = getDb();
  if (studyId !== undefined) {
    studyForStaff(db, actor, studyId);
    const r = q.runByName(db, studyId, name);
    if (!r?.launched) throw notFound(`A judge run launched from Concord named "${name}" in study ${studyId}`);
    return r.id;
  }
  const runs = q.launchesNamed(db, name);
  if (!runs.length) throw notFound(`A judge run launched from Concord named "${name}"`);
  if (runs.length > 1)
    throw invalid(`Several studies have a judge run "${name}" (studies ${runs.map((r) => r.studyId).join(', ')}); add --study.`);
  studyForStaff(db, actor, runs[0].studyId);
  return runs[0].runId;
}

export function pauseJudgeRun(actor: Actor, runId: number): JudgeRunStatusDto {
  const db = getDb();
  const l = launchFor(db, actor, runId);
  if (!q.setLaunchState(db, runId, ['running'], 'paused', 'paused by a lead'))
    throw conflict(`The judge run "${l.name}" is ${l.state.replace('_', ' ')}, not running.`);
  audit(db, { userId: actor.id, action: 'judge_run.pause', studyId: l.studyId, objectId: runId });
  return judgeRunStatus(actor, runId);
}

/** Sets a paused (or circuit-opened) run running again; the web app then starts its runner. */
export function resumeJudgeRun(actor: Actor, runId: number): JudgeRunStatusDto {
  const db = getDb();
  const l = launchFor(db, actor, runId);
  if (!q.setLaunchState(db, runId, ['paused', 'circuit_open', 'running'], 'running', null))
    throw conflict(`The judge run "${l.name}" is ${l.state.replace('_', ' ')}; it cannot be resumed.`);
  audit(db, { userId: actor.id, action: 'judge_run.resume', studyId: l.studyId, objectId: runId });
  return judgeRunStatus(actor, runId);
}

/**
 * Cancels a run and ends its runner process (`endRunnerProcess`): the checks and the cancel itself are done at the
 * call, so a refused cancel throws there; the promise settles once the runner process of this machine is gone.
 */
export function cancelJudgeRun(actor: Actor, runId: number): Promise<JudgeRunStatusDto> {
  const db = getDb();
  const l = launchFor(db, actor, runId);
  if (!q.setLaunchState(db, runId, ['running', 'paused', 'circuit_open'], 'cancelled', 'cancelled by a lead'))
    throw conflict(`The judge run "${l.name}" is ${l.state.replace('_', ' ')}; there is nothing to cancel.`);
  audit(db, { userId: actor.id, action: 'judge_run.cancel', studyId: l.studyId, objectId: runId });
  // The claim as it is now: a runner that started between the read above and the cancel is the one to end.
  const claim = q.findLaunch(db, runId)!;
  return endRunnerProcess(claim, STALE_MS).then(() => judgeRunStatus(actor, runId));
}

const RATE_WINDOW_MS = 30_000;

function statusOf(db: Db, l: q.LaunchRow): JudgeRunStatusDto {
  const t = q.runTotals(db, l.runId);
  const template = q.templateById(db, l.templateId)!;
  const items = l.itemLimit === null ? countItems(db, l.studyId) : Math.min(l.itemLimit, countItems(db, l.studyId));
  const now = Date.now();
  const windowStart = Math.max(now - RATE_WINDOW_MS, l.startedAt ?? now);
  const recent = l.state === 'running' ? q.answersSince(db, l.runId, windowStart) : 0;
  const rate = recent > 0 ? recent / Math.max(1, (now - windowStart) / 1000) : 0;
  const remaining = Math.max(0, l.requests - t.answered);
  const priceIn = l.priceIn === null ? null : Number(l.priceIn);
  const priceOut = l.priceOut === null ? null : Number(l.priceOut);
  return {
    run: l.name,
    items,
    requests: l.requests,
    sent: t.sent,
    cached: t.cached,
    answered: t.answered,
    unreadable: t.unreadable,
    failed: l.failed,
    tokensIn: t.tokensIn,
    tokensOut: t.tokensOut,
    runId: l.runId,
    studyId: l.studyId,
    state: l.state,
    reason: l.reason === null ? null : shownTextOf(db, l)(l.reason),
    stalled: l.state === 'running' && l.startedAt !== null && (l.heartbeatAt ?? 0) < now - STALE_MS,
    model: l.model,
    endpoint: l.endpointName ?? l.endpoint,
    template: { name: template.name, version: template.version },
    samples: l.samples,
    bothOrders: l.bothOrders === 1,
    concurrency: l.concurrency,
    rate: Math.round(rate * 10) / 10,
    etaSeconds: rate > 0 ? Math.round(remaining / rate) : null,
    cost: priceIn === null && priceOut === null ? null : ((priceIn ?? 0) * t.tokensIn + (priceOut ?? 0) * t.tokensOut) / 1e6,
    priceIn,
    priceOut,
    meanLatencyMs: t.sent ? Math.round(t.latencyMs / t.sent) : null,
    startedAt: l.startedAt === null ? null : new Date(l.startedAt).toISOString(),
    finishedAt: l.finishedAt === null ? null : new Date(l.finishedAt).toISOString(),
  };
}

export function judgeRunStatus(actor: Actor, runId: number): JudgeRunStatusDto {
  const db = getDb();
  return statusOf(db, launchFor(db, actor, runId));
}

/** Every judge run of the study, launched and imported, with the launched ones' status. */
export function listStudyJudgeRuns(actor: Actor, studyId: number): StudyJudgeRunDto[] {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  const launches = new Map(q.studyLaunches(db, studyId).map((l) => [l.name, l]));
  return judgeRunSummaries(db, studyId).map((r) => {
    const l = launches.get(r.name);
    return {
      name: r.name,
      origin: l ? 'launched' : 'imported',
      labels: r.labels,
      createdAt: new Date(r.createdAt).toISOString(),
      status: l ? statusOf(db, l) : null,
    };
  });
}

/** The run's unreadable answers with the judge's raw text. Leads and admins only. */
export function unreadableJudgeAnswers(actor: Actor, runId: number, limit = 100): UnreadableAnswerDto[] {
  const db = getDb();
  const shown = shownTextOf(db, launchFor(db, actor, runId));
  return q
    .unreadableAnswers(db, runId, limit)
    .map((a) => ({ item: a.item, criterion: a.criterion, sample: a.sample, swapped: a.swapped === 1, raw: shown(a.raw) }));
}

/**
 * Starts the runner of a run in a process of its own, detached from the web server: it goes on when the page is
 * closed and when the server stops, and stores each answer as it comes. A second runner for the same run is
 * refused by the run's claim (`claimLaunch`), so starting one twice is harmless. Returns the process, whose pid the
 * run's claim then holds (tests wait for its exit).
 */
export function startJudgeRunner(runId: number): ChildProcess {
  const command = childCommand('runner-child', [JSON.stringify({ runId })]);
  const child = spawn(command.file, command.args, {
    cwd: process.cwd(),
    // Only what the runner needs and the run's one key: never the server's environment (issue 21).
    env: runnerEnvironment(getDb(), q.findLaunch(getDb(), runId) ?? { endpointId: null, endpoint: '', apiKeyEnv: null, model: '' }),
    detached: true,
    stdio: 'ignore',
  });
  child.on('error', () => {}); // its run stays 'running' and is picked up at the next start
  child.unref();
  return child;
}

/**
 * At server start: every run left 'running' whose runner is gone (its process no longer exists, or it has not
 * been heard of for `STALE_MS`) is resumed in a new runner process. Returns the runs resumed.
 */
export function resumeAbandonedJudgeRuns(db: Db, start: (runId: number) => void = startJudgeRunner): number[] {
  const now = Date.now();
  const resumed: number[] = [];
  for (const l of q.launchesInState(db, 'running')) {
    const alive = l.ownerPid !== null && (l.heartbeatAt ?? 0) >= now - STALE_MS && processAlive(l.ownerPid, l.ownerHost ?? '');
    if (alive) continue;
    start(l.runId);
    resumed.push(l.runId);
  }
  return resumed;
}
