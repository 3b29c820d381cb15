import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runInBatch } from '@/test/cli-batch';

/* Editing a study from the command line: the same use-cases, and the same audit entries, as the study page. */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-cli-edit-'));
const db = path.join(dir, 'cli.db');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');

const env = { ...process.env, CONCORD_DB: db };

/** One `concord batch` process for the file (test/cli-batch.ts): each command runs as it would alone. */
function concord(args: string[], input?: string) {
  const r = runInBatch(env, args, input);
  return { code: r.code, out: r.stdout, err: r.stderr };
}
const read = <T>(sql: string, ...args: unknown[]) => {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare(sql).all(...args) as T[];
  } finally {
    conn.close();
  }
};

describe('study edit, deadline, replace-reviewer, close and archive', () => {
  it('changes the study as the page would, each change audited, and refuses bad input with a message', () => {
    for (const u of ['rev1', 'rev2']) expect(concord(['user', 'add', u], 'a-good-password\n').code).toBe(0);
    const id = JSON.parse(concord(['study', 'create', '--kind', 'flow_review', '--name', 'CLI edit', '--seed', '3', '--json']).out)
      .id as number;
    concord(['import', 'items', '--study', String(id), KMP]);
    concord(['study', 'members', String(id), 'rev1']);
    concord(['study', 'open', String(id)]);

    const guidelines = path.join(dir, 'g.md');
    fs.writeFileSync(guidelines, 'Check every step.');
    const edited = concord(['study', 'edit', String(id), '--name', 'CLI edit v2', '--guidelines', guidelines]);
    expect(edited.code, edited.err).toBe(0);
    expect(edited.out).toContain('"CLI edit v2", guidelines version 2');

    const bad = concord(['study', 'deadline', String(id), '2030-13-01']);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('"2030-13-01" is not a date');
    expect(concord(['study', 'deadline', String(id), '2030-06-30']).out).toContain('deadline 2030-06-30T23:59:59.999Z');

    const replaced = concord(['study', 'replace-reviewer', String(id), 'rev1', 'rev2']);
    expect(replaced.code, replaced.err).toBe(0);
    expect(replaced.out).toContain('6 pending item(s) moved from rev1 to rev2');

    expect(concord(['study', 'archive', String(id)]).code).not.toBe(0);
    expect(concord(['study', 'close', String(id)]).code).toBe(0);
    expect(concord(['study', 'archive', String(id)]).out).toContain('is archived');

    const actions = read<{ action: string }>('SELECT action FROM audit_log WHERE study_id = ? ORDER BY id', id).map((r) => r.action);
    expect(actions.slice(-5)).toEqual(['study_edited', 'study_deadline_set', 'study_reviewer_replaced', 'study_closed', 'study_archived']);
    expect(read<{ version: number }>('SELECT version FROM study_guideline_versions WHERE study_id = ? ORDER BY version', id)).toEqual([
      { version: 1 },
      { version: 2 },
    ]);
  }, 180_000);
});
