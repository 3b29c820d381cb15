/**
 * Issue 21, point 4: how long one transaction of undoing an abandoned import holds the write lock, before and after
 * the foreign-key indexes of migration 0019.
 * Run: npx tsx --conditions=react-server bench/import-undo.ts      (JUDGED=… ITEMS=… to change the sizes)
 *
 * Two temporary databases, one migrated up to 0018 (before) and one with every migration (after), each holding a
 * finished judge run over JUDGED items of another study (5 criteria: JUDGED × 5 verdicts and their packs, rows
 * in the tables that reference items, as on a server in use) and a staging import of ITEMS items whose process is
 * gone. Each undo transaction is timed as the undo runs it: `DELETE` of one batch of the import's items (the
 * statement `undoImport` runs, db/queries/items.ts), IMMEDIATE, committed with synchronous=FULL. Before: a
 * couple of batches of 2,000 (the old batch) and 500; after: the whole undo by batches of 500 (UNDO_BATCH) and a
 * few of 2,000.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationsUpTo } from '@/test/migrations';

const JUDGED = Number(process.env.JUDGED ?? 20_000);
const ITEMS = Number(process.env.ITEMS ?? 20_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-bench-undo-'));

async function build(tag: string, migrations: string | undefined) {
  const { openDatabase } = await import('@/db/client');
  if (migrations) process.env.CONCORD_MIGRATIONS = migrations;
  else delete process.env.CONCORD_MIGRATIONS;
  const db = openDatabase(path.join(dir, `${tag}.db`));
  const sql = db.$client;
  const user = Number(
    sql.prepare("INSERT INTO users (username, display_name, role, active) VALUES ('lead', 'Lead', 'lead', 1)").run().lastInsertRowid,
  );
  const study = (name: string) =>
    Number(
      sql.prepare("INSERT INTO studies (kind, name, seed, principles, created_by) VALUES ('pairwise', ?, 1, '[]', ?)").run(name, user)
        .lastInsertRowid,
    );
  const item = sql.prepare(
    "INSERT INTO items (study_id, external_id, position, payload, content_hash, import_id) VALUES (?, ?, ?, '{}', 'x', ?)",
  );
  const judged = study('judged');
  const run = Number(
    sql
      .prepare(
        "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, created_by) VALUES (?, 'J', 'concord', 'j.jsonl', '[]', ?)",
      )
      .run(judged, user).lastInsertRowid,
  );
  const label = sql.prepare("INSERT INTO judge_labels (run_id, item_id, criterion, swapped, label) VALUES (?, ?, ?, 0, 'win')");
  sql.transaction(() => {
    for (let k = 0; k < JUDGED; k++) {
      const id = item.run(judged, `j-${k}`, k + 1, null).lastInsertRowid;
      for (const c of ['c1', 'c2', 'c3', 'c4', 'c5']) label.run(run, id, c);
    }
  })();
  const target = study('abandoned');
  const importId = Number(
    sql
      .prepare(
        `INSERT INTO imports (study_id, kind, format, filename, records, inserted, unchanged, state, owner_pid, owner_host, heartbeat_at, created_by)
         VALUES (?, 'items', 'concord', 'big.jsonl', 0, 0, 0, 'staging', 999999, 'elsewhere', 0, ?)`,
      )
      .run(target, user).lastInsertRowid,
  );
  sql.transaction(() => {
    for (let k = 0; k < ITEMS; k++) item.run(target, `a-${k}`, k + 1, importId);
  })();
  return { db, importId };
}

async function timeBatches(tag: string, migrations: string | undefined, plan: number[]) {
  const { inTransaction } = await import('@/db/client');
  const { deleteImportItemsBatch } = await import('@/db/queries/items');
  const { db, importId } = await build(tag, migrations);
  const times: Record<number, number[]> = {};
  for (const size of plan) {
    const t = performance.now();
    const removed = inTransaction(db, () => deleteImportItemsBatch(db, importId, size));
    (times[size] ??= []).push(performance.now() - t);
    if (removed < size) break;
  }
  db.$client.close();
  for (const [size, ms] of Object.entries(times)) {
    const sorted = [...ms].sort((a, b) => a - b);
    console.log(
      `${tag}: ${ms.length} batch(es) of ${size} items: min ${sorted[0].toFixed(1)} ms, median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`,
    );
  }
}

async function main() {
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${JUDGED} judged items (${JUDGED * 5} verdicts), ${ITEMS} staged items`,
  );
  const { UNDO_BATCH } = await import('@/lib/server/imports/import-staging');
  await timeBatches('before (0018)', migrationsUpTo(dir, '0018_rubric_reply_lengths'), [2_000, 2_000, UNDO_BATCH, UNDO_BATCH]);
  await timeBatches('after (0019)', undefined, [2_000, 2_000, 2_000, ...Array.from({ length: ITEMS / UNDO_BATCH }, () => UNDO_BATCH)]);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().finally(() => fs.rmSync(dir, { recursive: true, force: true }));
