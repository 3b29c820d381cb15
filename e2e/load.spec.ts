import { expect, test, type APIRequestContext } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { latencySummary, runAnnotator, type AnnotatorResult } from './support/load';
import { concord } from './support/cli';
import { integrityCheck, pool, seededRandom, signInOverHttp, withReadonlyDb, writeFlowsFile } from './support/server';

// Fifty annotators submit at once against the shared production server, each in their own queue of one flow
// study; some submits are retried or sent twice at once with the same request id. Nothing may be lost or doubled.
const ANNOTATORS = 50;
const PER_ANNOTATOR = 20;
const ITEMS = ANNOTATORS * (PER_ANNOTATOR + 2); // two items each stay pending
const RETRY_RATE = 0.1;
const DOUBLE_RATE = 0.02;
const PASSWORD = 'load-test-password';
const SEED = Number(process.env.CONCORD_LOAD_SEED ?? 20261122);

const db = () => process.env.CONCORD_E2E_DB!;
const usernames = Array.from({ length: ANNOTATORS }, (_, i) => `load-ann-${String(i + 1).padStart(2, '0')}`);

test.describe.configure({ mode: 'serial' });

let studyId = 0;
let contexts: APIRequestContext[] = [];

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(150_000);
  for (const u of usernames) concord(['user', 'add', u, '--role', 'annotator'], `${PASSWORD}\n`);
  studyId = (
    JSON.parse(concord(['study', 'create', '--kind', 'flow_review', '--name', 'Load test', '--reviewers', '1', '--json'])) as {
      id: number;
    }
  ).id;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-load-'));
  try {
    concord(['import', 'items', '--study', String(studyId), '--format', 'concord', writeFlowsFile(dir, 'load', ITEMS)]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  concord(['study', 'members', String(studyId), ...usernames]);
  concord(['study', 'open', String(studyId)]);
  contexts = await pool(usernames, 5, (u) => signInOverHttp(baseURL!, u, PASSWORD));
});

test.afterAll(async () => {
  await Promise.all(contexts.map((c) => c.dispose()));
});

test(`${ANNOTATORS} annotators submit ${ANNOTATORS * PER_ANNOTATOR} reviews at once, with retries and double submits: each stored exactly once`, async () => {
  test.setTimeout(120_000);
  console.log(`load seed ${SEED} (rerun with CONCORD_LOAD_SEED=${SEED})`);
  const t0 = Date.now();
  const results: AnnotatorResult[] = await Promise.all(
    contexts.map((ctx, i) =>
      runAnnotator(ctx, {
        username: usernames[i],
        studyId,
        submissions: PER_ANNOTATOR,
        random: seededRandom(SEED + i),
        retryRate: RETRY_RATE,
        doubleRate: DOUBLE_RATE,
      }),
    ),
  );
  const seconds = (Date.now() - t0) / 1000;
  const latencies = results.flatMap((r) => r.latencies);
  const retries = results.reduce((n, r) => n + r.retries, 0);
  const doubles = results.reduce((n, r) => n + r.doubles, 0);
  console.log(
    `${ANNOTATORS} annotators, ${ANNOTATORS * PER_ANNOTATOR} submissions (${retries} retried, ${doubles} sent twice at once) in ${seconds.toFixed(1)} s\n` +
      `submit latency (every POST, loopback, under load): ${latencySummary(latencies)}`,
  );

  // No request failed, and the queues moved as they should.
  expect(results.flatMap((r) => r.failures)).toEqual([]);
  expect(retries).toBeGreaterThan(0);
  const acked = results.flatMap((r) =>
    [...r.acked].map(([assignmentId, requestId]) => ({ username: r.username, assignmentId, requestId })),
  );
  expect(acked).toHaveLength(ANNOTATORS * PER_ANNOTATOR);

  withReadonlyDb(db(), (sql) => {
    expect(integrityCheck(sql)).toBe('ok');
    // Every acknowledged submission is stored once, on its assignment, by its reviewer.
    const byRequest = sql.prepare(
      `SELECT an.assignment_id AS assignmentId, u.username, an.revision, count(*) OVER (PARTITION BY an.request_id) AS n
         FROM annotations an JOIN users u ON u.id = an.created_by WHERE an.request_id = ?`,
    );
    const missing: string[] = [];
    for (const a of acked) {
      const row = byRequest.get(a.requestId) as { assignmentId: number; username: string; revision: number; n: number } | undefined;
      if (!row || row.n !== 1 || row.assignmentId !== a.assignmentId || row.username !== a.username || row.revision !== 1) {
        missing.push(`${a.username} #${a.assignmentId} ${a.requestId}: ${JSON.stringify(row)}`);
      }
    }
    expect(missing).toEqual([]);

    const inStudy = 'FROM annotations an JOIN assignments a ON a.id = an.assignment_id WHERE a.study_id = ?';
    expect(sql.prepare(`SELECT count(*) ${inStudy}`).pluck().get(studyId)).toBe(ANNOTATORS * PER_ANNOTATOR);
    expect(sql.prepare(`SELECT an.assignment_id, count(*) AS n ${inStudy} GROUP BY an.assignment_id HAVING n > 1`).all(studyId)).toEqual(
      [],
    );

    // Submitted assignments and annotations match one to one.
    const states = sql
      .prepare(
        `SELECT sum(state = 'submitted') AS submitted,
                sum(state = 'submitted' AND NOT EXISTS (SELECT 1 FROM annotations an WHERE an.assignment_id = a.id)) AS submittedWithout,
                sum(state = 'pending' AND EXISTS (SELECT 1 FROM annotations an WHERE an.assignment_id = a.id)) AS pendingWith
           FROM assignments a WHERE study_id = ?`,
      )
      .get(studyId);
    expect(states).toEqual({ submitted: ANNOTATORS * PER_ANNOTATOR, submittedWithout: 0, pendingWith: 0 });

    // Every item has exactly the planned reviewers, finished or not.
    const planned = sql.prepare('SELECT reviewers_per_item FROM studies WHERE id = ?').pluck().get(studyId) as number;
    const perItem = sql
      .prepare(
        `SELECT i.id, count(a.id) AS reviewers, sum(a.state = 'submitted') AS done
           FROM items i LEFT JOIN assignments a ON a.item_id = i.id WHERE i.study_id = ? GROUP BY i.id`,
      )
      .all(studyId) as { id: number; reviewers: number; done: number }[];
    expect(perItem).toHaveLength(ITEMS);
    expect(perItem.filter((r) => r.reviewers !== planned)).toEqual([]);
    expect(perItem.filter((r) => r.done === planned)).toHaveLength(ANNOTATORS * PER_ANNOTATOR);
  });

  // What each annotator and the lead see agrees with the database.
  const queues = await Promise.all(contexts.map(async (ctx) => (await ctx.get(`/api/studies/${studyId}/queue`)).json()));
  expect(queues.map((q: { submitted: number; total: number }) => [q.submitted, q.total])).toEqual(
    usernames.map(() => [PER_ANNOTATOR, PER_ANNOTATOR + 2]),
  );
  const report = JSON.parse(concord(['report', 'flows', '--study', String(studyId), '--json'])) as {
    items: number;
    submitted: number;
    verified: number;
    reviewers: { username: string; submitted: number }[];
  };
  expect([report.items, report.submitted, report.verified]).toEqual([ITEMS, ANNOTATORS * PER_ANNOTATOR, ANNOTATORS * PER_ANNOTATOR]);
  expect(report.reviewers.filter((r) => r.submitted !== PER_ANNOTATOR)).toEqual([]);
  const raw = concord(['export', 'flows', '--study', String(studyId), '--what', 'decisions', '--format', 'csv']);
  const csv = raw.trim().split(/\r?\n/);
  expect(csv).toHaveLength(1 + ANNOTATORS * PER_ANNOTATOR);
});
