import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { importJudge } from '@/lib/server/imports/judge-import';
import type { Actor } from '../actor';
import { DomainError } from '../errors';
import { agreementReport } from './agreement';
import { MAX_BOOTSTRAP_REPLICATES } from './data';
import { leaderboardReport } from './leaderboard';
import { computeReport } from './report';
import { reportForRequest, warmReportProcess } from './report-process';
import { buildStudy, labels } from '@/test/analytics-fixtures';
import { processGone } from '../judges/runner-process';
import { reportWorker } from './report-worker';

/** Waits for `done` (polling), failing after `ms`. */
async function waitUntil(done: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// A report with bootstrap intervals is computed by a process of its own for the web server: same numbers, same
// refusals, and the server's event loop runs meanwhile.
const CRITERIA = ['overall'];
const { dir } = useTestDatabase();
let lead: Actor, annotator: Actor;
let studyId: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  annotator = await makeUser('ann');
  const items = Array.from({ length: 60 }, (_, k) => ({ id: `p${k}`, model: k % 2 ? 'm1' : 'm2' }));
  const letters = 'WTL';
  studyId = buildStudy(lead, dir, {
    name: 'Bootstrap',
    reviewersPerItem: 2,
    catalog: [],
    items,
    annotations: items.flatMap((it, k) => [
      { item: it.id, annotator: 'r1', labels: labels(CRITERIA, letters[k % 3]) },
      { item: it.id, annotator: 'r2', labels: labels(CRITERIA, letters[((k * 7) % 5) % 3]) },
    ]),
    judges: [{ name: 'judge-a', lines: items.map((it, k) => ({ item: it.id, labels: labels(CRITERIA, letters[(k * 5) % 3]) })) }],
  });
});

describe('a report with a bootstrap, for the web server', () => {
  it('is computed by another process with the same numbers, while this one keeps running', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const [agreement, leaderboard] = await Promise.all([
      reportForRequest(lead, studyId, 'agreement', { bootstrap: '4000' }),
      reportForRequest(lead, studyId, 'leaderboard', { bootstrap: '2000', tiePolicy: 'half' }),
    ]).finally(() => clearInterval(timer));
    // The registry adds to every report the labels the study's exclusions left out (none here).
    const none = { excluded: { labels: 0, annotators: [] } };
    expect(agreement).toEqual(JSON.parse(JSON.stringify({ ...agreementReport(lead, studyId, { bootstrap: 4000 }), ...none })));
    expect(leaderboard).toEqual(JSON.parse(JSON.stringify({ ...leaderboardReport(lead, studyId, { bootstrap: 2000 }), ...none })));
    expect(agreement.bootstrap.replicates).toBe(4000);
    expect(agreement.macro.intervals.krippendorffAlphaNominal.lower).toEqual(expect.any(Number));
    expect(ticks).toBeGreaterThan(20);
  }, 60_000);

  it('computes the certify and bias reports in another process too, with the same numbers and options', async () => {
    const options = { judge: 'judge-a', criterion: 'overall', target: '0.6', epsilon: '0.3' };
    const [certify, bias] = await Promise.all([
      reportForRequest(lead, studyId, 'certify', options),
      reportForRequest(lead, studyId, 'bias', {}),
    ]);
    expect(certify).toEqual(JSON.parse(JSON.stringify(computeReport(lead, studyId, 'certify', options))));
    expect(certify.target).toBe(0.6);
    expect(bias).toEqual(JSON.parse(JSON.stringify(computeReport(lead, studyId, 'bias', {}))));
  }, 60_000);

  it('computes point estimates in this process, as before', async () => {
    const dto = await reportForRequest(lead, studyId, 'alignment', { judge: 'judge-a', bootstrap: '0' });
    expect(dto).toEqual(computeReport(lead, studyId, 'alignment', { judge: 'judge-a', bootstrap: '0' }));
  });

  it(`refuses more than ${MAX_BOOTSTRAP_REPLICATES} replicates, saying the cap, here and on the command line`, async () => {
    const error = await reportForRequest(lead, studyId, 'agreement', { bootstrap: '10001' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid');
    expect((error as DomainError).message).toBe('bootstrap: at most 10,000 bootstrap replicates, not 10,001.');
    for (const name of ['agreement', 'alignment', 'leaderboard'] as const)
      expect(() => computeReport(lead, studyId, name, { judge: 'judge-a', bootstrap: '100000' })).toThrow(
        'at most 10,000 bootstrap replicates',
      );
    // The cap itself is allowed.
    expect(agreementReport(lead, studyId, { bootstrap: MAX_BOOTSTRAP_REPLICATES }).bootstrap.replicates).toBe(MAX_BOOTSTRAP_REPLICATES);
  }, 60_000);

  it('checks the caller before starting a process, and the child checks again', async () => {
    const error = await reportForRequest(annotator, studyId, 'agreement', { bootstrap: '100' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('forbidden');
    const missing = await reportForRequest(lead, studyId, 'alignment', { judge: 'nobody', bootstrap: '100' }).catch((e: unknown) => e);
    expect([(missing as DomainError).code, (missing as DomainError).message]).toEqual([
      'not_found',
      'A judge run named "nobody" was not found.',
    ]);
  }, 60_000);
});

describe('the report process', () => {
  const job = () => reportForRequest(lead, studyId, 'agreement', { bootstrap: '200' });

  it('is started once and kept: the next report does not wait for a new process', async () => {
    const first = await job();
    const pid = reportWorker(10).pid;
    expect(pid).toEqual(expect.any(Number));
    const again = await job();
    expect(reportWorker(10).pid).toBe(pid);
    expect(again).toEqual(first);
  }, 60_000);

  it('reads the database afresh for every report', async () => {
    const before = await reportForRequest(lead, studyId, 'alignment', { judge: 'judge-b', bootstrap: '50' }).catch((e: unknown) => e);
    expect((before as DomainError).code).toBe('not_found');
    const lines = Array.from({ length: 60 }, (_, k) => JSON.stringify({ item: `p${k}`, judge: 'judge-b', labels: labels(CRITERIA, 'W') }));
    importJudge(lead, studyId, writeTemp(dir, 'judge-b.jsonl', `${lines.join('\n')}\n`), 'concord');
    const after = await reportForRequest(lead, studyId, 'alignment', { judge: 'judge-b', bootstrap: '50' });
    expect(after).toEqual(JSON.parse(JSON.stringify(computeReport(lead, studyId, 'alignment', { judge: 'judge-b', bootstrap: '50' }))));
  }, 60_000);

  it('is ended when a caller gives up on the report it is computing, and the next report starts a new one', async () => {
    await job();
    const pid = reportWorker(10).pid!;
    const abort = new AbortController();
    const given = reportForRequest(lead, studyId, 'agreement', { bootstrap: '10000' }, abort.signal).catch((e: unknown) => e);
    abort.abort(new Error('the browser left'));
    expect(((await given) as Error).message).toBe('the browser left');
    await waitUntil(() => processGone(pid));
    expect(await job()).toEqual(JSON.parse(JSON.stringify(computeReport(lead, studyId, 'agreement', { bootstrap: '200' }))));
    expect(reportWorker(10).pid).not.toBe(pid);
  }, 60_000);

  it('fails the report it was computing when it dies, saying so, and the next report works', async () => {
    await job();
    const pid = reportWorker(10).pid!;
    const dying = reportForRequest(lead, studyId, 'agreement', { bootstrap: '10000' }).catch((e: unknown) => e);
    process.kill(pid, 'SIGKILL');
    expect(((await dying) as Error).message).toMatch(/report-child ended \(SIGKILL\) without an answer/);
    expect(await job()).toEqual(JSON.parse(JSON.stringify(computeReport(lead, studyId, 'agreement', { bootstrap: '200' }))));
  }, 60_000);
});

describe('the report process of a process that changes database', () => {
  it('is started again on the database now in use, never answering from the one it was started on', async () => {
    await reportForRequest(lead, studyId, 'agreement', { bootstrap: '50' });
    const pid = reportWorker(10).pid!;
    const first = process.env.CONCORD_DB!;
    const other = path.join(dir, 'other.db');
    getDb().$client.exec(`VACUUM INTO '${other}'`);
    closeDb();
    process.env.CONCORD_DB = other;
    try {
      const lines = Array.from({ length: 60 }, (_, k) =>
        JSON.stringify({ item: `p${k}`, judge: 'judge-other', labels: labels(CRITERIA, 'T') }),
      );
      importJudge(lead, studyId, writeTemp(dir, 'judge-other.jsonl', `${lines.join('\n')}\n`), 'concord');
      const options = { judge: 'judge-other', bootstrap: '50' };
      expect(await reportForRequest(lead, studyId, 'alignment', options)).toEqual(
        JSON.parse(JSON.stringify(computeReport(lead, studyId, 'alignment', options))),
      );
      expect(reportWorker(10).pid).not.toBe(pid);
      await waitUntil(() => processGone(pid));
    } finally {
      closeDb();
      process.env.CONCORD_DB = first;
    }
    const back = await reportForRequest(lead, studyId, 'alignment', { judge: 'judge-other', bootstrap: '50' }).catch((e: unknown) => e);
    expect((back as DomainError).code).toBe('not_found');
  }, 60_000);
});

describe('warming the report process', () => {
  it('starts it once when a dashboard opens, and the next report uses it', async () => {
    reportWorker(10).stop();
    warmReportProcess();
    const pid = reportWorker(10).pid;
    expect(pid).toEqual(expect.any(Number));
    warmReportProcess();
    expect(reportWorker(10).pid).toBe(pid);
    await reportForRequest(lead, studyId, 'agreement', { bootstrap: '100' });
    expect(reportWorker(10).pid).toBe(pid);
  }, 60_000);
});
