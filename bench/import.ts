/**
 * Budget "Import: 150,000 flows (KMP-Pile scale, several hundred MB) in under a minute, memory bounded" (DESIGN).
 * Run: npx tsx --conditions=react-server bench/import.ts            (FLOWS=… to change the count)
 *
 * Writes a temporary Concord-format JSONL of 150,000 flows made from the MathDial test split with the MathDial
 * adapter (`mathdialToFlow`, realistic sizes; ids rewritten to be unique), creates a flow-review study in a
 * temporary database and times the real CLI, `node lib/cli/bin.mjs import items --study S FILE`, under
 * `/usr/bin/time -f %M` (peak RSS of the CLI and its tsx child). Floor: a plain better-sqlite3 loop (same pragmas,
 * same schema, same file read in 1 MiB chunks) inserting the same lines as JSON text in one transaction.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeMathdialFlows } from './mathdial-flows';
import { openBenchDatabase } from './pairwise-study';

const FLOWS = Number(process.env.FLOWS ?? 150_000);
const BUDGET_S = 60;

/** Lines of a file, read in 1 MiB chunks (the floor's reader; UTF-8 safe because it splits on LF bytes). */
function* lines(file: string): Generator<string> {
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(1 << 20);
  let rest = Buffer.alloc(0);
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const chunk = Buffer.concat([rest, buf.subarray(0, n)]);
      let start = 0;
      for (let k = chunk.indexOf(10); k >= 0; k = chunk.indexOf(10, start)) {
        yield chunk.toString('utf8', start, k);
        start = k + 1;
      }
      rest = Buffer.from(chunk.subarray(start));
    }
    if (rest.length) yield rest.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

async function main() {
  const bench = openBenchDatabase('import');
  const file = path.join(bench.dir, 'flows.jsonl');
  try {
    // The input file (not timed).
    const t0 = performance.now();
    const { ids, bytes: size, conversations } = await writeMathdialFlows(file, FLOWS);
    const genS = (performance.now() - t0) / 1000;

    const { getDb, closeDb, openDatabase } = await import('@/db/client');
    const { createStudy } = await import('@/lib/server/studies/studies');
    const { cliActor } = await import('@/lib/server/system/system');
    getDb();
    const studyId = createStudy(cliActor(), { kind: 'flow_review', name: 'Import bench' }).id;
    closeDb();

    console.log(
      `Concord import benchmark — node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `input: ${FLOWS.toLocaleString('en')} flows from ${conversations} MathDial conversations, ${(size / 1e6).toFixed(0)} MB ` +
        `(${(size / FLOWS / 1024).toFixed(1)} KiB a flow), written in ${genS.toFixed(1)} s (not timed)`,
    );

    // Concord: the real CLI.
    const cmd = ['-f', '%M', process.execPath, 'lib/cli/bin.mjs', 'import', 'items', '--study', String(studyId), file];
    console.log(`$ /usr/bin/time -f %M node lib/cli/bin.mjs import items --study ${studyId} ${path.basename(file)}`);
    const t1 = performance.now();
    const run = spawnSync('/usr/bin/time', cmd, { cwd: process.cwd(), env: { ...process.env }, encoding: 'utf8' });
    const cliS = (performance.now() - t1) / 1000;
    process.stdout.write(run.stdout.replace(/^/gm, '  '));
    const stderr = run.stderr.trim().split('\n');
    const rssKb = Number(stderr.at(-1));
    if (run.status !== 0) {
      console.log(run.stderr);
      throw new Error(`the import failed (exit ${run.status})`);
    }
    const db = openDatabase(process.env.CONCORD_DB!);
    const stored = db.$client.prepare('SELECT count(*) AS n, sum(length(payload)) AS bytes FROM items WHERE study_id = ?').get(studyId) as {
      n: number;
      bytes: number;
    };
    db.$client.close();

    // Floor: plain better-sqlite3, same schema and pragmas, same lines inserted as JSON text in one transaction.
    const floorFile = path.join(bench.dir, 'floor.db');
    const floorDb = openDatabase(floorFile).$client;
    floorDb.prepare("INSERT INTO users (username, display_name, role) VALUES ('floor', 'Floor', 'lead')").run();
    const floorStudy = Number(
      floorDb.prepare("INSERT INTO studies (kind, name, seed, principles, created_by) VALUES ('flow_review', 'floor', 1, '[]', 1)").run()
        .lastInsertRowid,
    );
    const insert = floorDb.prepare('INSERT INTO items (study_id, external_id, position, payload, content_hash) VALUES (?, ?, ?, ?, ?)');
    const t2 = performance.now();
    floorDb
      .transaction(() => {
        let k = 0;
        for (const line of lines(file)) {
          if (!line) continue;
          insert.run(floorStudy, ids[k], k + 1, line, '');
          k++;
        }
      })
      .immediate();
    const floorS = (performance.now() - t2) / 1000;
    floorDb.close();

    const within = cliS < BUDGET_S;
    console.log(
      `Concord CLI import: ${cliS.toFixed(1)} s wall (process start included), peak RSS ${(rssKb / 1024).toFixed(0)} MB; ` +
        `${stored.n.toLocaleString('en')} items stored (${(stored.bytes / 1e6).toFixed(0)} MB of payload)`,
    );
    console.log(`floor (better-sqlite3 loop, one transaction): ${floorS.toFixed(1)} s`);
    console.log(
      `ratio ${(cliS / floorS).toFixed(2)}×; ${within ? 'within' : 'OVER'} the ${BUDGET_S} s budget; input/peak RSS = ${(size / 1024 / rssKb).toFixed(1)}`,
    );
  } finally {
    bench.remove();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
