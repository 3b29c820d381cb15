import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

/* The demo seed without the public datasets: it still seeds the KMP-style studies and says what it skipped. */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-seed-'));
const empty = path.join(dir, 'no-public-data');
fs.mkdirSync(empty);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('seeding without the public data', () => {
  it('names each skipped dataset, the path looked for and how to provide it', () => {
    const r = spawnSync(process.execPath, ['lib/cli/bin.mjs', 'seed'], {
      env: { ...process.env, CONCORD_DB: path.join(dir, 'seed.db'), CONCORD_PUBLIC_DATA: empty },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('KMP-style flows');
    expect(r.stdout).toContain('KMP-style pairwise');
    expect(r.stdout).toContain('Rubric example (9 hand-written replies to 3 dialogues');
    const skipped = r.stderr.trim().split('\n');
    expect(skipped).toHaveLength(5);
    for (const [line, what, file] of [
      [skipped[0], 'the MathDial flows study', path.join(empty, 'mathdial', 'test.jsonl')],
      [skipped[1], 'the Bridge pairwise study', path.join(empty, 'bridge', 'test.json')],
      [skipped[2], 'the PandaLM study', path.join(empty, 'pandalm', 'testset-v1.json')],
      [skipped[3], 'the MRBench V3 rubric study', path.join(empty, 'mrbench', 'mrbench_v3_devset.json')],
      [skipped[4], 'the AITutor-EvalKit rubric study', path.join(empty, 'aitutor-evalkit', 'test_sample.json')],
    ]) {
      expect(line).toContain(`Skipped ${what}: ${file} was not found.`);
      expect(line).toContain('set CONCORD_PUBLIC_DATA to a folder laid out like the shared data README');
    }
  }, 60_000);
});

describe('the demo mark', () => {
  const demoSetting = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare("SELECT value FROM app_settings WHERE key = 'demo'").pluck().get() ?? null;
    } finally {
      db.close();
    }
  };
  const run = (db: string, args: string[], input?: string) =>
    spawnSync(process.execPath, ['lib/cli/bin.mjs', ...args], {
      env: { ...process.env, CONCORD_DB: db, CONCORD_PUBLIC_DATA: empty },
      encoding: 'utf8',
      input,
    });

  it('is written by the seed, so the sign-in page of that database lists the demo accounts', () => {
    expect(demoSetting(path.join(dir, 'seed.db'))).toBe('1');
  });

  it('is absent from a database set up by hand, which therefore never lists accounts', () => {
    const db = path.join(dir, 'real.db');
    const r = run(db, ['user', 'add', 'alice', '--role', 'lead', '--name', 'Alice'], 'a-long-password-1\n');
    expect(r.status, r.stderr).toBe(0);
    expect(demoSetting(db)).toBeNull();
  });
});
