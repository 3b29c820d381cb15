import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { publicDataDir } from '@/lib/io/public-data';

/*
 * The demo seed without the public datasets: it still seeds the KMP-style studies, says once what it skipped, and adds
 * the missing studies to the demo later when their data arrives.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-seed-'));
const empty = path.join(dir, 'no-public-data');
fs.mkdirSync(empty);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const studiesOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT name FROM studies ORDER BY id').pluck().all() as string[];
  } finally {
    db.close();
  }
};

describe('seeding without the public data', () => {
  it('seeds the studies that ship with the app and says once what it skipped, where it looked and how to add it', () => {
    const r = spawnSync(process.execPath, ['lib/cli/bin.mjs', 'seed'], {
      env: { ...process.env, CONCORD_DB: path.join(dir, 'seed.db'), CONCORD_PUBLIC_DATA: empty },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('KMP-style flows');
    expect(r.stdout).toContain('KMP-style pairwise');
    expect(r.stdout).toContain('Rubric example (9 hand-written replies to 3 dialogues');
    expect(r.stderr.match(/Skipped/g)).toHaveLength(1);
    expect(r.stderr).toContain(`Skipped 6 demo studies: their public data is not in ${empty}.`);
    for (const [what, file] of [
      ['the MathDial flows study', path.join(empty, 'mathdial', 'test.jsonl')],
      ['the Bridge pairwise study', path.join(empty, 'bridge', 'test.json')],
      ['the PandaLM study', path.join(empty, 'pandalm', 'testset-v1.json')],
      ['the PandaLM adjudication study', path.join(empty, 'pandalm', 'testset-v1.json')],
      ['the MRBench V3 rubric study', path.join(empty, 'mrbench', 'mrbench_v3_devset.json')],
      ['the AITutor-EvalKit rubric study', path.join(empty, 'aitutor-evalkit', 'test_sample.json')],
    ]) {
      expect(r.stderr).toContain(`  - ${what}: ${file} was not found`);
    }
    expect(r.stderr).toContain('npx concord data fetch');
    expect(r.stderr).toContain('the missing studies are added to this demo database');
    expect(studiesOf(path.join(dir, 'seed.db'))).toEqual(['KMP-style flows', 'KMP-style pairwise', 'Rubric example (hand-written)']);
  }, 60_000);

  it('adds the demo studies whose data has arrived since to the demo database, and only those', () => {
    const db = path.join(dir, 'top-up.db');
    const env = (data: string) => ({ ...process.env, CONCORD_DB: db, CONCORD_PUBLIC_DATA: data });
    expect(spawnSync(process.execPath, ['lib/cli/bin.mjs', 'seed', '--if-empty'], { env: env(empty), encoding: 'utf8' }).status).toBe(0);
    // MathDial arrives (as `concord data fetch --only mathdial` would put it).
    const some = path.join(dir, 'some-public-data');
    fs.mkdirSync(path.join(some, 'mathdial'), { recursive: true });
    fs.copyFileSync(path.join(publicDataDir(), 'mathdial', 'test.jsonl'), path.join(some, 'mathdial', 'test.jsonl'));
    const again = spawnSync(process.execPath, ['lib/cli/bin.mjs', 'seed', '--if-empty'], { env: env(some), encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('MathDial flows (599 flows, split between ann1, ann2, ann3)');
    expect(again.stdout).toContain('Added 1 demo study to the demo database.');
    expect(again.stderr).toContain('Skipped 5 demo studies');
    expect(studiesOf(db)).toEqual(['KMP-style flows', 'KMP-style pairwise', 'Rubric example (hand-written)', 'MathDial flows']);
    const third = spawnSync(process.execPath, ['lib/cli/bin.mjs', 'seed'], { env: env(some), encoding: 'utf8' });
    expect(third.status, third.stderr).toBe(0);
    expect(third.stdout).toContain('already has every demo study whose data is here');
    expect(studiesOf(db)).toHaveLength(4);
  }, 120_000);
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

  it('is what the seed asks before it touches a database that has accounts: one not made by the seed is left alone', () => {
    const db = path.join(dir, 'real.db');
    const refused = run(db, ['seed']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('is not the demo');
    const quiet = run(db, ['seed', '--if-empty']);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stdout).toContain('is not the demo; the demo seed left it as it is');
    expect(studiesOf(db)).toEqual([]);
  });
});
