import { spawn } from 'node:child_process';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { codeOf } from '@/test/errors';
import { flowsJsonl } from '@/e2e/support/server';
import type { Actor } from '../actor';
import { createStudy } from '../studies/studies';
import { undoAbandonedImportsInBackground } from './import-staging';
import { importItems } from './imports';

// In the server (after its start has called undoAbandonedImportsInBackground), an abandoned import found when someone
// imports into its study is undone in the background, not in that person's request. The switch holds for the rest
// of the process: it is turned back at the end, for the files that run after this one in the same worker.
const { dir } = useTestDatabase();
const sql = () => getDb().$client;
const count = (q: string, ...a: unknown[]) =>
  sql()
    .prepare(q)
    .pluck()
    .get(...a) as number;

let lead: Actor;
beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  undoAbandonedImportsInBackground();
});
afterAll(() => undoAbandonedImportsInBackground(false));

describe('an abandoned import found by an import into its study, in the server', () => {
  it('is undone in the background while the request is told to try again, and the import then goes in', async () => {
    const studyId = createStudy(lead, { kind: 'flow_review', name: 'Abandoned', reviewersPerItem: 1 }).id;
    const gone = spawn('sleep', ['60'], { stdio: 'ignore' });
    const importId = Number(
      sql()
        .prepare(
          `INSERT INTO imports (study_id, kind, format, filename, records, inserted, unchanged, state, owner_pid, owner_host, heartbeat_at, created_by)
           VALUES (?, 'items', 'concord', 'killed.jsonl', 0, 0, 0, 'staging', ?, ?, ?, ?)`,
        )
        .run(studyId, gone.pid, os.hostname(), Date.now(), lead.id).lastInsertRowid,
    );
    const insert = sql().prepare(
      "INSERT INTO items (study_id, external_id, position, payload, content_hash, import_id) VALUES (?, ?, ?, '{}', 'x', ?)",
    );
    sql().transaction(() => {
      for (let k = 0; k < 20_000; k++) insert.run(studyId, `killed-${k}`, k + 1, importId);
    })();
    gone.kill('SIGKILL');
    await new Promise((resolve) => gone.once('exit', resolve));

    const file = writeTemp(dir, 'next.jsonl', flowsJsonl('next', 10));
    const started = performance.now();
    expect(codeOf(() => importItems(lead, studyId, file, 'concord'))).toBe('conflict');
    const answeredMs = performance.now() - started;
    expect(count('SELECT count(*) FROM items WHERE import_id = ?', importId)).toBeGreaterThan(0); // still being undone
    expect(answeredMs).toBeLessThan(2_000);

    for (let i = 0; i < 600 && count('SELECT count(*) FROM imports WHERE id = ?', importId) > 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(count('SELECT count(*) FROM items WHERE study_id = ?', studyId)).toBe(0);
    expect(importItems(lead, studyId, file, 'concord')).toMatchObject({ inserted: 10 });
  }, 60_000);
});
