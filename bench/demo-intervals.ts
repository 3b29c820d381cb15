/**
 * How long the demo's dashboards take to show their intervals: the production server on a demo database seeded
 * with the public data (`CONCORD_PUBLIC_DATA`, as `npm run demo` does), signed in as `lead`, asks each dashboard
 * report with the 1,000-replicate bootstrap a dashboard starts by itself (and the certify and bias reports, which are
 * computed in the same report process) the way the browser does, one after another, and times each answer.
 * The first one also starts the server's report process; every later one finds it running.
 *
 *   npx next build && CONCORD_PUBLIC_DATA=../shared/data npx tsx --conditions=react-server bench/demo-intervals.ts [--port 3533]
 */
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { cliOn } from '@/e2e/support/server';
import { conditions, signInPeople, withOwnServer } from './own-server';

const { values: args } = parseArgs({ options: { port: { type: 'string', default: '3533' } } });
const BUDGET_MS = 2000;

type Job = { study: string; studyId: number; report: string; query: string };

async function main() {
  if (!process.env.CONCORD_PUBLIC_DATA) throw new Error('Set CONCORD_PUBLIC_DATA to the public data folder (see data/README.md).');
  await withOwnServer('demo-intervals', Number(args.port), async ({ db, server }) => {
    console.log(`Concord demo dashboards' intervals — ${conditions()} at the start`);
    cliOn(db, ['seed']);
    const d = new Database(db, { readonly: true });
    const studies = d.prepare('SELECT id, kind, name FROM studies ORDER BY id').all() as { id: number; kind: string; name: string }[];
    const runs = d.prepare('SELECT study_id AS studyId, name FROM judge_runs ORDER BY id').all() as { studyId: number; name: string }[];
    d.close();
    const jobs: Job[] = [];
    for (const s of studies) {
      const prefix = s.kind === 'rubric' ? 'rubric-' : '';
      if (s.kind === 'flow_review') continue;
      const job = (report: string, query: string) => jobs.push({ study: s.name, studyId: s.id, report, query });
      job(`${prefix}agreement`, 'bootstrap=1000');
      job(`${prefix}leaderboard`, 'bootstrap=1000');
      for (const r of runs.filter((r) => r.studyId === s.id)) {
        const judge = `judge=${encodeURIComponent(r.name)}`;
        job(`${prefix}alignment`, `${judge}&bootstrap=1000`);
        job(`${prefix}certify`, judge);
      }
      job(`${prefix}bias`, '');
    }
    await server.start(120_000);
    const [lead] = await signInPeople(server.baseURL, ['lead'], 'concord-demo');
    const rows: string[] = [];
    let over = 0;
    console.log('\n| study | report | options | answered in ms | |\n|---|---|---|---|---|');
    for (const [k, j] of jobs.entries()) {
      const r = await lead.get(`/api/studies/${j.studyId}/reports/${j.report}${j.query ? `?${j.query}` : ''}`);
      const note = r.status !== 200 ? `status ${r.status}: ${r.text.slice(0, 120)}` : k === 0 ? 'starts the report process' : '';
      if (r.status === 200 && r.ms > BUDGET_MS) over++;
      rows.push(`| ${j.study} | ${j.report} | ${decodeURIComponent(j.query) || '—'} | ${r.ms.toFixed(0)} | ${note} |`);
      console.log(rows.at(-1));
    }
    const answered = jobs.length;
    console.log(`\n${answered} reports; ${over} took longer than ${BUDGET_MS} ms; at the end ${conditions()}`);
  });
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
