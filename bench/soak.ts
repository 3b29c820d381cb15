/**
 * A working day, compressed: many annotators at human pace for a while, with a lead's heavy work around them.
 * Run (after `npx next build`):
 *   npx tsx --conditions=react-server bench/soak.ts [--minutes 20] [--annotators 200] [--port 3520]
 *     [--flows 150000] [--verdicts 100000] [--backup-every 5m]
 *
 * The production server (`next start`) on a database of its own, seeded with the demo (for the dashboards' data)
 * plus a flow study of KMP-style flows in which the annotators work, a draft study for the large import and a
 * pairwise study for the judge run. The server writes a scheduled, verified backup every `--backup-every`.
 *
 * Each annotator (own session, plain HTTP over loopback) starts within the first minute and then, item after item:
 * GET the item (the "next item" latency), works on it 8–40 s saving a draft every 3–6 s (the review screen's
 * server action), sometimes reloads the review screen (page, queue and item again), submits (POST submission);
 * 3 % of submits are sent twice at once with one request id, 5 % sent again after their answer (a retry); 3 % of
 * submissions are undone at once (server action) and the item is submitted again after a short look.
 * The lead meanwhile: after 1 minute uploads `--flows` MathDial-derived flows into the draft study (the upload
 * route, as the import form does); after 3 minutes uploads a judge run of `--verdicts` verdicts; every 30 s reads
 * every dashboard (study overviews, item lists, analytics overview, agreement, alignment, leaderboard, hybrid, bias
 * of the demo's PandaLM study, and the new pairwise study's analytics); every 5 minutes exports the ground truth.
 * A probe asks `/api/health` every second; every 10 s the server's memory, the database and its WAL are measured.
 *
 * Reported: failed requests (must be 0); every acknowledged submission checked against the database at the end
 * (present exactly once: none lost, none doubled, nothing stored that was not acknowledged); p50/p95/p99 of
 * submit, next item, draft, dashboard and health; memory and WAL over time; the import and the judge run; the
 * newest backup restored with `concord restore` into a fresh folder, with every submission acknowledged before it
 * was taken present.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { newRequestId, percentile } from '@/e2e/support/load';
import { cliOn, integrityCheck, seededRandom, writeFlowsFile } from '@/e2e/support/server';
import { writeJudgeStudyFiles } from './judge-study';
import { writeMathdialFlows } from './mathdial-flows';
import {
  HttpPerson,
  addAccounts,
  conditions,
  fileMB,
  serverActionId,
  serverMemory,
  signInPeople,
  sleep,
  withOwnServer,
  type Reply,
} from './own-server';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    annotators: { type: 'string', default: '200' },
    port: { type: 'string', default: '3520' },
    flows: { type: 'string', default: '150000' },
    verdicts: { type: 'string', default: '100000' },
    'backup-every': { type: 'string', default: '5m' },
  },
});
const MINUTES = Number(args.minutes);
const ANNOTATORS = Number(args.annotators);
const PORT = Number(args.port);
const FLOWS = Number(args.flows);
const VERDICTS = Number(args.verdicts);
const PASSWORD = 'soak-password';
const DEMO_PASSWORD = 'concord-demo';
const PANDALM = 5; // the demo's pairwise study with people's labels, a judge and a ground truth
const SEED = 20261123;
/** When things happen: the full schedule for 20 minutes or more, compressed for a shorter run. */
const AT = (ms: number) => Math.min(ms, (ms / (20 * 60_000)) * MINUTES * 60_000);

type Sample = { at: number; ms: number };
type Failure = { who: string; step: string; status: number; detail: string };
type Ack = { username: string; assignmentId: number; requestId: string; at: number };

const samples: Record<string, Sample[]> = {
  submit: [],
  'next item': [],
  draft: [],
  reload: [],
  undo: [],
  dashboard: [],
  health: [],
  export: [],
};
const failures: Failure[] = [];
const acks: Ack[] = [];
const counters = { submits: 0, doubles: 0, retries: 0, undos: 0, reloads: 0, drafts: 0, dashboards: 0, exports: 0 };
let t0 = 0;
const now = () => performance.now() - t0;

function record(kind: string, r: Reply) {
  samples[kind].push({ at: now() - r.ms, ms: r.ms });
}

function check(who: string, step: string, r: Reply, ok = r.status === 200): boolean {
  if (!ok) failures.push({ who, step, status: r.status, detail: r.text.slice(0, 300) });
  return ok;
}

/** The body of a JSON answer `{ ok: true, data }`, or null. */
const data = <T>(r: Reply): T | null => {
  const b = r.body as { ok?: boolean; data?: T } | null;
  return r.status === 200 && b?.ok === true && b.data !== undefined ? b.data : null;
};

/** A server action's result, `{ ok, data }`, from its RSC answer (the line that carries it). */
function actionResult<T>(r: Reply): { ok: boolean; data?: T; error?: string } | null {
  if (r.status !== 200) return null;
  for (const line of r.text.split('\n')) {
    const m = /^1:(\{.*\})$/.exec(line);
    if (m) return JSON.parse(m[1]) as { ok: boolean; data?: T };
  }
  return null;
}

type Queue = { currentId: number | null; submitted: number; total: number };
type SubmitData = { assignmentId: number; revision: number; duplicate: boolean; queue: Queue };

async function annotator(p: HttpPerson, study: number, ids: { draft: string; undo: string }, until: number, random: () => number) {
  const page = `/studies/${study}/review`;
  const between = (a: number, b: number) => a + (b - a) * random();
  await sleep(between(0, AT(60_000)));
  let current: number | null = null;
  const reload = async () => {
    counters.reloads++;
    const html = await p.get(page);
    record('reload', html);
    check(p.username, 'reload page', html);
    const q = await p.get(`/api/studies/${study}/queue`);
    if (!check(p.username, 'queue', q)) return null;
    return (q.body as Queue).currentId;
  };
  current = await reload();
  while (now() < until && current !== null) {
    const id: number = current;
    const item = await p.get(`/api/assignments/${id}`);
    record('next item', item);
    const view = item.body as { state?: string } | null;
    if (!check(p.username, 'next item', item, item.status === 200 && view?.state === 'pending')) {
      current = await reload();
      continue;
    }
    // Working on the item: a draft every 3–6 s, sometimes a reload of the screen.
    const workMs = between(8_000, 40_000);
    const start = now();
    let reloaded = false;
    while (now() - start < workMs && now() < until) {
      await sleep(Math.min(between(3_000, 6_000), Math.max(0, workMs - (now() - start))));
      if (now() - start >= workMs) break;
      if (!reloaded && random() < 0.04) {
        reloaded = true;
        const again = await reload();
        if (again !== id) check(p.username, 'reload', { status: 0, body: null, text: `current ${again}, expected ${id}`, ms: 0 }, false);
        continue;
      }
      counters.drafts++;
      const d = await p.action(page, ids.draft, [
        { assignmentId: id, draft: { decision: 'verify', note: `draft ${Math.round(now())}` }, activeMs: Math.round(now() - start) },
      ]);
      record('draft', d);
      check(p.username, 'draft', d, actionResult(d)?.ok === true);
    }
    if (now() >= until) break;

    const requestId = newRequestId(p.username);
    const body = { requestId, activeMs: Math.round(workMs), decision: { decision: 'verify' } };
    const roll = random();
    counters.submits++;
    let answer: SubmitData | null;
    if (roll < 0.03) {
      counters.doubles++;
      const both = await Promise.all([
        p.post(`/api/assignments/${id}/submission`, body),
        p.post(`/api/assignments/${id}/submission`, body),
      ]);
      both.forEach((r) => record('submit', r));
      const ds = both.map((r) => data<SubmitData>(r));
      if (!check(p.username, 'double submit', both[0], ds.every(Boolean) && ds.filter((x) => !x!.duplicate).length === 1)) {
        current = await reload();
        continue;
      }
      answer = ds.find((x) => !x!.duplicate)!;
    } else {
      const r = await p.post(`/api/assignments/${id}/submission`, body);
      record('submit', r);
      answer = data<SubmitData>(r);
      if (!check(p.username, 'submit', r, !!answer && !answer.duplicate)) {
        current = await reload();
        continue;
      }
      if (roll < 0.08) {
        counters.retries++;
        const again = await p.post(`/api/assignments/${id}/submission`, body);
        record('submit', again);
        const a2 = data<SubmitData>(again);
        check(p.username, 'retry', again, !!a2 && a2.duplicate && a2.revision === answer!.revision);
      }
    }
    acks.push({ username: p.username, assignmentId: id, requestId, at: Date.now() });
    current = answer!.queue.currentId;

    if (random() < 0.03) {
      counters.undos++;
      const u = await p.action(page, ids.undo, [{ studyId: study }]);
      record('undo', u);
      const res = actionResult<{ assignmentId: number; queue: Queue }>(u);
      if (check(p.username, 'undo', u, res?.ok === true && res.data!.assignmentId === id && res.data!.queue.currentId === id)) {
        current = id;
        await sleep(between(2_000, 5_000));
      } else {
        current = await reload();
      }
    }
  }
}

/** The lead's dashboards: every page a lead reads, one after the other. */
function dashboardPages(flowStudy: number, bigStudy: number, pairStudy: number): string[] {
  const analytics = ['/agreement', '/alignment', '/leaderboard', '/hybrid', '/bias'];
  return [
    '/',
    `/studies/${flowStudy}`,
    `/studies/${flowStudy}/items`,
    `/studies/${bigStudy}`,
    `/studies/${bigStudy}/items`,
    ...analytics.map((a) => `/studies/${PANDALM}/analytics${a}`),
    `/studies/${pairStudy}`,
    ...analytics.map((a) => `/studies/${pairStudy}/analytics${a}`),
  ];
}

async function main() {
  await withOwnServer(
    'soak',
    PORT,
    async ({ dir, db, server }) => {
      const setupStart = Date.now();
      const lines: string[] = [];
      const log = (s: string) => {
        lines.push(s);
        console.log(s);
      };
      log(`Concord soak — ${MINUTES} min, ${ANNOTATORS} annotators, production build on loopback; at the start: ${conditions()}`);

      // --- the database: demo seed, a working flow study, a draft study for the import, a pairwise study for the judge run
      cliOn(db, ['seed']);
      const usernames = Array.from({ length: ANNOTATORS }, (_, i) => `soak-${String(i + 1).padStart(3, '0')}`);
      await addAccounts(db, usernames, PASSWORD);
      const create = (extra: string[]) => (JSON.parse(cliOn(db, ['study', 'create', ...extra, '--json'])) as { id: number }).id;
      const flowStudy = create(['--kind', 'flow_review', '--name', 'Soak flows', '--reviewers', '1']);
      const perAnnotator = Math.ceil((MINUTES * 60) / 8) + 5;
      cliOn(db, ['import', 'items', '--study', String(flowStudy), writeFlowsFile(dir, 'soak', ANNOTATORS * perAnnotator)]);
      cliOn(db, ['study', 'members', String(flowStudy), ...usernames]);
      cliOn(db, ['study', 'open', String(flowStudy)]);
      const bigStudy = create(['--kind', 'flow_review', '--name', 'Large import']);
      const judgeFiles = writeJudgeStudyFiles(dir, VERDICTS / 10);
      const pairStudy = create(['--kind', 'pairwise', '--name', 'Judged', '--criteria', judgeFiles.catalog]);
      cliOn(db, ['import', 'items', '--study', String(pairStudy), judgeFiles.itemsFile]);
      const big = path.join(dir, 'big.jsonl');
      const { bytes: bigBytes } = await writeMathdialFlows(big, FLOWS);

      const backupDir = path.join(dir, 'backups');
      await server.start(120_000);
      const ids = {
        draft: serverActionId('app/(app)/studies/[id]/review/actions.ts', 'saveFlowDraftAction'),
        undo: serverActionId('app/(app)/studies/[id]/review/actions.ts', 'undoLastSubmissionAction'),
      };
      const people = await signInPeople(server.baseURL, usernames, PASSWORD);
      const [lead] = await signInPeople(server.baseURL, ['lead'], DEMO_PASSWORD);
      log(
        `setup ${((Date.now() - setupStart) / 1000).toFixed(0)} s: ${(ANNOTATORS * perAnnotator).toLocaleString('en')} flows to review; ` +
          `import file ${FLOWS.toLocaleString('en')} flows (${(bigBytes / 1e6).toFixed(0)} MB); judge file ${VERDICTS.toLocaleString('en')} verdicts ` +
          `(${(judgeFiles.bytes / 1e6).toFixed(0)} MB); backups every ${args['backup-every']} into the server's backup folder`,
      );

      t0 = performance.now();
      const until = MINUTES * 60_000;
      const timeline: string[] = [];
      const events: string[] = [];
      const event = (s: string) => {
        events.push(`${(now() / 1000).toFixed(0).padStart(5)} s  ${s}`);
        console.log(`  ${(now() / 1000).toFixed(0)} s  ${s}`);
      };

      const workers = people.map((p, i) => annotator(p, flowStudy, ids, until, seededRandom(SEED + 1 + i)));

      const probe = (async () => {
        while (now() < until) {
          const t = performance.now();
          const ok = await fetch(`${server.baseURL}/api/health`, { headers: { connection: 'close' } }).then(
            (r) => r.status,
            () => 0,
          );
          const ms = performance.now() - t;
          samples.health.push({ at: now() - ms, ms });
          if (ok !== 200) failures.push({ who: 'probe', step: 'health', status: ok, detail: '' });
          await sleep(1000);
        }
      })();

      let peakWal = 0;
      const sampler = (async () => {
        for (let k = 0; now() < until + 5_000; k++) {
          const mem = serverMemory(server);
          const wal = fileMB(`${db}-wal`);
          peakWal = Math.max(peakWal, wal);
          if (k % 6 === 0) {
            timeline.push(
              `| ${(now() / 60_000).toFixed(0)} | ${mem?.serverMB.toFixed(0) ?? '—'} | ${mem?.groupMB.toFixed(0) ?? '—'} | ${fileMB(db).toFixed(0)} | ${wal.toFixed(1)} | ` +
                `${acks.length.toLocaleString('en')} | ${os.loadavg()[0].toFixed(2)} |`,
            );
          }
          await sleep(10_000);
        }
      })();

      const leadWork = (async () => {
        const pages = dashboardPages(flowStudy, bigStudy, pairStudy);
        let nextExport = AT(4 * 60_000);
        // The uploads at their times, whatever the dashboards take.
        const uploads = [
          (async () => {
            await sleep(AT(60_000));
            event(`lead uploads ${FLOWS.toLocaleString('en')} flows`);
            const r = await lead.request('POST', `/api/studies/${bigStudy}/import?format=concord&filename=big.jsonl`, {
              body: await fs.openAsBlob(big),
              headers: { 'content-type': 'application/x-ndjson' },
            });
            check('lead', 'import', r, !!data(r));
            event(`import answered ${r.status} after ${(r.ms / 1000).toFixed(1)} s: ${r.text.slice(0, 160)}`);
          })(),
          (async () => {
            await sleep(AT(180_000));
            event(`lead uploads a judge run of ${VERDICTS.toLocaleString('en')} verdicts`);
            const r = await lead.request('POST', `/api/studies/${pairStudy}/judge?format=concord&filename=judge.jsonl`, {
              body: await fs.openAsBlob(judgeFiles.judgeFile),
              headers: { 'content-type': 'application/x-ndjson' },
            });
            check('lead', 'judge upload', r, !!data(r));
            event(`judge run answered ${r.status} after ${(r.ms / 1000).toFixed(1)} s: ${r.text.slice(0, 160)}`);
          })(),
        ];
        while (now() < until) {
          const round = now();
          for (const url of pages) {
            const r = await lead.get(url);
            record('dashboard', r);
            counters.dashboards++;
            check('lead', `dashboard ${url}`, r);
          }
          if (round >= nextExport) {
            nextExport += AT(5 * 60_000);
            for (const study of [PANDALM, pairStudy]) {
              const r = await lead.get(`/api/studies/${study}/export?what=ground-truth&format=jsonl`);
              record('export', r);
              counters.exports++;
              check('lead', `ground-truth export of study ${study}`, r);
              event(
                `ground truth of study ${study} exported: ${r.text.split('\n').filter(Boolean).length} lines in ${(r.ms / 1000).toFixed(1)} s`,
              );
            }
          }
          await sleep(Math.max(0, AT(30_000) - (now() - round)));
        }
        await Promise.all(uploads);
      })();

      await Promise.all([...workers, probe, sampler, leadWork]);
      const wall = now();
      event('load ended');

      // --- the checks, on the database the server wrote
      const health = (await (await fetch(`${server.baseURL}/api/health`)).json()) as { backup: { newestAt: string | null } };
      const memEnd = serverMemory(server);
      await server.kill9();
      const live = new Database(db, { fileMustExist: true });
      const stored = live
        .prepare(
          `SELECT u.username, an.assignment_id AS assignmentId, an.request_id AS requestId FROM annotations an
             JOIN assignments a ON a.id = an.assignment_id JOIN users u ON u.id = an.created_by WHERE a.study_id = ?`,
        )
        .all(flowStudy) as { username: string; assignmentId: number; requestId: string }[];
      const key = (x: { username: string; assignmentId: number; requestId: string }) => `${x.username}/${x.assignmentId}/${x.requestId}`;
      const storedCount = new Map<string, number>();
      for (const s of stored) storedCount.set(key(s), (storedCount.get(key(s)) ?? 0) + 1);
      const ackedKeys = new Set(acks.map(key));
      const lost = acks.filter((a) => !storedCount.has(key(a))).length;
      const doubled = [...storedCount.values()].filter((n) => n > 1).length;
      const unacked = stored.filter((s) => !ackedKeys.has(key(s))).length;
      const items = live.prepare('SELECT count(*) FROM items WHERE study_id = ?').pluck().get(bigStudy) as number;
      const verdicts = live
        .prepare("SELECT count(*) FROM judge_labels j JOIN judge_runs r ON r.id = j.run_id WHERE r.study_id = ? AND r.state = 'done'")
        .pluck()
        .get(pairStudy) as number;
      const integrity = integrityCheck(live);
      live.close();

      // --- the newest backup, restored into a fresh folder with the real CLI
      const backups = fs
        .readdirSync(backupDir)
        .filter((f) => /^concord-.*\.db$/.test(f))
        .sort();
      let backupLine = 'no backup was taken';
      let backupMissing = -1;
      if (backups.length) {
        const newest = backups.at(-1)!;
        const m = /^concord-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z\.db$/.exec(newest)!;
        const takenAt = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`);
        const fresh = path.join(fs.mkdtempSync(path.join(dir, 'restored-')), 'concord.db');
        const out = cliOn(db, ['restore', path.join(backupDir, newest), '--to', fresh]).trim();
        const restored = new Database(fresh, { readonly: true });
        const has = restored.prepare(
          `SELECT count(*) FROM annotations an JOIN users u ON u.id = an.created_by WHERE u.username = ? AND an.assignment_id = ? AND an.request_id = ?`,
        );
        const before = acks.filter((a) => a.at < takenAt);
        backupMissing = before.filter((a) => has.pluck().get(a.username, a.assignmentId, a.requestId) !== 1).length;
        restored.close();
        backupLine =
          `${backups.length} good backups kept (${backups.join(', ')}); health named the newest ${health.backup.newestAt}; ` +
          `${out.split('\n')[0]} — ${before.length.toLocaleString('en')} submissions acknowledged before it was taken, ${backupMissing} missing from it`;
      }

      const sum = (kind: string) => {
        const s = samples[kind].map((x) => x.ms).sort((a, b) => a - b);
        const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(1));
        return `| ${kind} | ${s.length.toLocaleString('en')} | ${f(percentile(s, 50))} | ${f(percentile(s, 95))} | ${f(percentile(s, 99))} | ${f(s.at(-1) ?? NaN)} |`;
      };
      log('');
      log(`load: ${(wall / 60_000).toFixed(1)} min; at the end: ${conditions()}`);
      log(
        `annotators: ${counters.submits.toLocaleString('en')} submits (${counters.doubles} sent twice at once, ${counters.retries} retried), ` +
          `${counters.undos} undone and submitted again, ${counters.drafts.toLocaleString('en')} drafts, ${counters.reloads.toLocaleString('en')} reloads; ` +
          `${(acks.length / (wall / 1000)).toFixed(1)} acknowledged submissions/s; lead: ${counters.dashboards} dashboard pages, ${counters.exports} ground-truth exports; ` +
          `${HttpPerson.resent} requests sent again after a reset before any answer`,
      );
      log('');
      log('| request | n | p50 ms | p95 ms | p99 ms | max ms |');
      log('|---|---|---|---|---|---|');
      for (const kind of Object.keys(samples)) log(sum(kind));
      log('');
      log('| minute | server RSS MB | with children MB | database MB | WAL MB | acknowledged | load 1 min |');
      log('|---|---|---|---|---|---|---|');
      for (const t of timeline) log(t);
      log(`peak WAL ${peakWal.toFixed(1)} MB; server RSS at the end ${memEnd?.serverMB.toFixed(0) ?? '—'} MB`);
      log('');
      for (const e of events) log(e);
      log('');
      log(
        `check: ${failures.length} failed requests; ${acks.length.toLocaleString('en')} submissions acknowledged, ${stored.length.toLocaleString('en')} stored: ` +
          `${lost} lost, ${doubled} doubled, ${unacked} stored without an acknowledgement; ${items.toLocaleString('en')} of ${FLOWS.toLocaleString('en')} flows imported, ` +
          `${verdicts.toLocaleString('en')} of ${VERDICTS.toLocaleString('en')} verdicts stored; integrity ${integrity}`,
      );
      log(`backup: ${backupLine}`);
      const byStep = new Map<string, number>();
      for (const f of failures) byStep.set(f.step, (byStep.get(f.step) ?? 0) + 1);
      for (const [step, n] of byStep) log(`  failed ${step}: ${n}`);
      for (const f of failures.slice(0, 8)) log(`  failure: ${JSON.stringify(f)}`);
      if (
        failures.length ||
        lost ||
        doubled ||
        unacked ||
        items !== FLOWS ||
        verdicts !== VERDICTS ||
        integrity !== 'ok' ||
        backupMissing !== 0
      ) {
        process.exitCode = 1;
      }
      fs.writeFileSync(path.join(os.tmpdir(), `concord-soak-${PORT}.txt`), `${lines.join('\n')}\n`);
    },
    { CONCORD_BACKUP_EVERY: args['backup-every']!, CONCORD_BACKUP_KEEP: '3' },
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
