import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsUpTo } from '@/test/migrations';
import { closeDb, getDb } from './client';

/*
 * Migration 0013 keeps each pairwise item's reply lengths in `item_reply_lengths`: it fills them for the items a
 * database already holds, and a trigger writes them for every item inserted afterwards. Here a database is built at
 * 0011 (the committed migrations up to it), given items of a pairwise and of a flow study with plain SQL, then
 * opened by the app, which applies 0013.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-reply-lengths-'));
const file = path.join(dir, 'test.db');

afterAll(() => {
  closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pair = (a: string | null, b: string) =>
  JSON.stringify({ problem: 'p', a: a === null ? { source: 'm' } : { source: 'm', text: a }, b: { source: 'r', text: b } });

describe('migration 0013: reply lengths', () => {
  it('fills the lengths of the pairwise items already there, and the trigger writes them for new ones', () => {
    const sqlite = new Database(file);
    sqlite.pragma('foreign_keys = ON');
    migrate(drizzle(sqlite), { migrationsFolder: migrationsUpTo(dir, '0011_rubric') });
    const run = (sql: string, ...args: unknown[]) => Number(sqlite.prepare(sql).run(...args).lastInsertRowid);
    const lead = run("INSERT INTO users (username, display_name, role) VALUES ('lead', 'Lead', 'lead')");
    const study = (kind: string) =>
      run(
        "INSERT INTO studies (kind, name, status, reviewers_per_item, seed, principles, criteria, created_by) VALUES (?, ?, 'open', 1, 1, '[]', '[]', ?)",
        kind,
        kind,
        lead,
      );
    const pairwise = study('pairwise');
    const flows = study('flow_review');
    const item = (studyId: number, k: number, payload: string) =>
      run(
        'INSERT INTO items (study_id, external_id, position, payload, content_hash) VALUES (?, ?, ?, ?, ?)',
        studyId,
        `i${k}`,
        k,
        payload,
        `h${k}`,
      );
    const old1 = item(pairwise, 1, pair('héllo', 'hi'));
    const old2 = item(pairwise, 2, pair(null, 'four'));
    item(flows, 3, JSON.stringify({ problem: { text: 'p' }, steps: [] }));
    sqlite.close();

    process.env.CONCORD_DB = file;
    const sql = getDb().$client; // applies 0013
    const lengths = () => sql.prepare('SELECT item_id, study_id, length_a, length_b FROM item_reply_lengths ORDER BY item_id').raw().all();
    // Characters, not bytes; a reply without text has no length; the flow item has no row.
    expect(lengths()).toEqual([
      [old1, pairwise, 5, 2],
      [old2, pairwise, null, 4],
    ]);
    const added = Number(
      sql
        .prepare('INSERT INTO items (study_id, external_id, position, payload, content_hash) VALUES (?, ?, ?, ?, ?)')
        .run(pairwise, 'i4', 4, pair('a longer reply', 'short'), 'h4').lastInsertRowid,
    );
    sql
      .prepare('INSERT INTO items (study_id, external_id, position, payload, content_hash) VALUES (?, ?, ?, ?, ?)')
      .run(flows, 'i5', 5, '{}', 'h5');
    expect(lengths()).toEqual([
      [old1, pairwise, 5, 2],
      [old2, pairwise, null, 4],
      [added, pairwise, 14, 5],
    ]);
    // A deleted item takes its lengths with it.
    sql.prepare('DELETE FROM items WHERE id = ?').run(old1);
    expect(lengths()).toHaveLength(2);
  });
});
