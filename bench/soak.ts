/**
 * A working day, compressed: many annotators at human pace for a while, with a lead's heavy work around them.
 * Run (after `npx next build`):
 *   npx tsx --conditions=react-server bench/soak.ts [--minutes 20] [--annotators 200] [--port 3520]
 *     [--flows 150000] [--verdicts 100000] [--backup-every 5m]
 * A short run (about 2 minutes in all): --minutes 1 --annotators 20 --flows 5000 --verdicts 2000 --backup-every 20s
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
 *
 * This file sets the run up and runs it; the annotators are in `soak/annotators.ts`, the lead's work in
 * `soak/lead.ts`, the health probe and the memory and WAL samples in `soak/monitor.ts`, what they record in
 * `soak/measures.ts`, the checks at the end in `soak/checks.ts` and the report in `soak/report.ts`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cliOn, seededRandom, writeFlowsFile } from '@/e2e/support/server';
import { writeJudgeStudyFiles } from './judge-study';
import { writeMathdialFlows } from './mathdial-flows';
import { addAccounts, conditions, serverActionId, serverMemory, signInPeople, withOwnServer } from './own-server';
import { annotator } from './soak/annotators';
import { checkDatabase, checkNewestBackup } from './soak/checks';
import { leadWork } from './soak/lead';
import { now, schedule, startClock } from './soak/measures';
import { type Watch, probeHealth, watchServer } from './soak/monitor';
import { printReport } from './soak/report';

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
const SEED = 20261123;
/** When things happen: the full schedule for 20 minutes or more, compressed for a shorter run. */
const AT = schedule(MINUTES);

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
        undo: serverActionId('app/(app)/studies/[id]/review/actions.ts', 'undoLastSubmissionAction'),
      };
      const people = await signInPeople(server.baseURL, usernames, PASSWORD);
      const [lead] = await signInPeople(server.baseURL, ['lead'], DEMO_PASSWORD);
      log(
        `setup ${((Date.now() - setupStart) / 1000).toFixed(0)} s: ${(ANNOTATORS * perAnnotator).toLocaleString('en')} flows to review; ` +
          `import file ${FLOWS.toLocaleString('en')} flows (${(bigBytes / 1e6).toFixed(0)} MB); judge file ${VERDICTS.toLocaleString('en')} verdicts ` +
          `(${(judgeFiles.bytes / 1e6).toFixed(0)} MB); backups every ${args['backup-every']} into the server's backup folder`,
      );

      startClock();
      const until = MINUTES * 60_000;
      const watch: Watch = { timeline: [], peakWal: 0 };
      const events: string[] = [];
      const event = (s: string) => {
        events.push(`${(now() / 1000).toFixed(0).padStart(5)} s  ${s}`);
        console.log(`  ${(now() / 1000).toFixed(0)} s  ${s}`);
      };

      const workers = people.map((p, i) => annotator(p, flowStudy, ids, until, seededRandom(SEED + 1 + i), AT));
      const probe = probeHealth(server.baseURL, until);
      const sampler = watchServer(server, db, until, watch);
      const leadLoad = leadWork({
        lead,
        flowStudy,
        bigStudy,
        pairStudy,
        flowsFile: big,
        flows: FLOWS,
        judgeFile: judgeFiles.judgeFile,
        verdicts: VERDICTS,
        until,
        at: AT,
        event,
      });
      await Promise.all([...workers, probe, sampler, leadLoad]);
      const wall = now();
      event('load ended');

      // --- the checks, on the database the server wrote, then on the newest backup
      // The backup state is told only to someone signed in (lib/server/system/health.ts): ask as the lead.
      const health = (await lead.get('/api/health')).body as { backup?: { newestAt: string | null } } | null;
      if (!health?.backup) throw new Error(`GET /api/health as the lead told no backup state: ${JSON.stringify(health)}`);
      const memEnd = serverMemory(server);
      await server.kill9();
      const database = checkDatabase(db, { flowStudy, bigStudy, pairStudy });
      const backup = checkNewestBackup(db, dir, backupDir, health.backup.newestAt);

      const passed = printReport(log, {
        wall,
        watch,
        serverMBAtEnd: memEnd?.serverMB ?? null,
        events,
        database,
        flows: FLOWS,
        verdicts: VERDICTS,
        backup,
      });
      if (!passed) process.exitCode = 1;
      fs.writeFileSync(path.join(os.tmpdir(), `concord-soak-${PORT}.txt`), `${lines.join('\n')}\n`);
    },
    { CONCORD_BACKUP_EVERY: args['backup-every']!, CONCORD_BACKUP_KEEP: '3' },
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
