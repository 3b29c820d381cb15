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
 * Migration 0018 keeps each rubric item's reply length in `item_reply_lengths` (`length_a`), as 0013 does for
 * pairwise items: a database built at 0017 with rubric items written by plain SQL, then opened by the app.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-rubric-lengths-'));
const file = path.join(dir, 'test.db');

afterAll(() => {
  closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('migration 0018: rubric reply lengths', () => {
  it("writes each rubric item's reply length in length_a, for the items there and the new ones; a whole-dialogue item gets no length", () => {
    const sqlite = new Database(file);
    sqlite.pragma('foreign_keys = ON');
    migrate(drizzle(sqlite), { migrationsFolder: migrationsUpTo(dir, '0017_rubric_append_only') });
    const run = (sql: string, ...args: unknown[]) => Number(sqlite.prepare(sql).run(...args).lastInsertRowid);
    const lead = run("INSERT INTO users (username, display_name, role) VALUES ('lead', 'Lead', 'lead')");
    const rubric = run(
      "INSERT INTO studies (kind, name, status, reviewers_per_item, seed, principles, criteria, created_by) VALUES ('rubric', 'r', 'open', 1, 1, '[]', '[]', ?)",
      lead,
    );
    const insert = 'INSERT INTO items (study_id, external_id, position, payload, content_hash) VALUES (?, ?, ?, ?, ?)';
    const turn = [{ role: 'student', text: 'Is it 12?' }];
    const reply = run(insert, rubric, 'r1', 1, JSON.stringify({ history: turn, reply: { source: 'T', text: 'Où est 12 ?' } }), 'h1');
    const dialogue = run(insert, rubric, 'r2', 2, JSON.stringify({ history: turn }), 'h2');
    sqlite.close();

    process.env.CONCORD_DB = file;
    const sql = getDb().$client; // applies 0018
    const lengths = () => sql.prepare('SELECT item_id, study_id, length_a, length_b FROM item_reply_lengths ORDER BY item_id').raw().all();
    expect(lengths()).toEqual([
      [reply, rubric, 11, null],
      [dialogue, rubric, null, null],
    ]);
    const added = Number(
      sql.prepare(insert).run(rubric, 'r3', 3, JSON.stringify({ history: turn, reply: { source: 'T', text: 'Yes.' } }), 'h3')
        .lastInsertRowid,
    );
    expect(lengths()).toHaveLength(3);
    expect(lengths()[2]).toEqual([added, rubric, 4, null]);
  });
});
