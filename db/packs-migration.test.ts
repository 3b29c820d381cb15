import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { expectReadersMatchRows, packMismatches } from '@/test/packs';
import { migrationsUpTo } from '@/test/migrations';
import { closeDb, getDb } from './client';

/*
 * Migration 0007 adds the packed labels and fills them from what a database already holds. Here a database is
 * built at migration 0006 (the committed migrations up to it), filled with plain SQL, then opened by the app,
 * which applies 0007: the packs must equal the rows, and the rows must not change.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-packs-migration-'));
const file = path.join(dir, 'test.db');

afterAll(() => {
  closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The committed migrations up to and including `tag`, in a folder of their own. */

const TABLES = ['studies', 'items', 'assignments', 'annotations', 'labels', 'adjudications', 'judge_runs', 'judge_labels'];

function fillBeforePacks(sqlite: Database.Database): Record<string, number> {
  const run = (sql: string, ...args: unknown[]) => Number(sqlite.prepare(sql).run(...args).lastInsertRowid);
  const lead = run("INSERT INTO users (username, display_name, role) VALUES ('lead', 'Lead', 'lead')");
  const people = ['ann', 'bob', 'cid'].map((u) => run("INSERT INTO users (username, display_name, role) VALUES (?, ?, 'annotator')", u, u));
  const catalog = JSON.stringify([
    { id: 'clarity', name: 'Clarity', level: 'general', description: 'Clearer?' },
    { id: 'correctness', name: 'Correctness', level: 'general', description: 'Right?' },
  ]);
  const LABELS = ['lose', 'tie', 'win'];
  for (const [s, rule] of [
    [1, 'adjudicated'],
    [2, 'majority'],
  ] as const) {
    const studyId = run(
      "INSERT INTO studies (kind, name, status, reviewers_per_item, seed, principles, criteria, created_by, ground_truth_rule) VALUES ('pairwise', ?, 'open', 3, ?, '[]', ?, ?, ?)",
      `Old study ${s}`,
      s,
      catalog,
      lead,
      rule,
    );
    const judgeRun = run(
      "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, created_by) VALUES (?, 'old-judge', 'concord', 'j.jsonl', '[]', ?)",
      studyId,
      lead,
    );
    for (let k = 0; k < 12; k++) {
      // Positions run backwards, so item order and id order differ.
      const itemId = run(
        'INSERT INTO items (study_id, external_id, position, payload, content_hash, source_a, source_b) VALUES (?, ?, ?, ?, ?, ?, ?)',
        studyId,
        `old-${s}-${k}`,
        100 - k,
        '{}',
        `h-${s}-${k}`,
        k % 3 ? 'model-a' : 'model-b',
        'reference',
      );
      for (let slot = 1; slot <= 1 + (k % 3); slot++) {
        const state = k === 5 && slot === 2 ? 'pending' : 'submitted';
        const assignmentId = run(
          'INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position, state) VALUES (?, ?, ?, ?, ?, ?)',
          studyId,
          itemId,
          people[slot - 1],
          slot,
          k + 1,
          state,
        );
        // Every fourth assignment was revised; the revisions were written newest first for some.
        const revisions = (k + slot) % 4 === 0 ? (k % 2 ? [2, 1] : [1, 2]) : [1];
        for (const revision of revisions) {
          const annotationId = run(
            'INSERT INTO annotations (assignment_id, revision, request_id, created_by) VALUES (?, ?, ?, ?)',
            assignmentId,
            revision,
            `old-${s}-${assignmentId}-${revision}`,
            people[slot - 1],
          );
          if (k === 7 && slot === 1) continue; // an annotation without labels
          for (const [c, criterion] of ['clarity', 'correctness', 'overall', 'retired'].entries()) {
            if (criterion === 'retired' && k % 4) continue;
            sqlite
              .prepare('INSERT INTO labels (annotation_id, criterion, label, screen_choice) VALUES (?, ?, ?, NULL)')
              .run(annotationId, criterion, LABELS[(k * 7 + slot * 5 + c * 3 + revision) % 3]);
          }
        }
      }
      for (const criterion of ['clarity', 'overall', 'retired']) {
        if ((k + criterion.length) % 3 === 0) {
          for (const revision of k % 2 ? [2, 1] : [1]) {
            run(
              'INSERT INTO adjudications (item_id, criterion, revision, label, adjudicator_id, request_id) VALUES (?, ?, ?, ?, ?, ?)',
              itemId,
              criterion,
              revision,
              LABELS[(k + revision) % 3],
              lead,
              `old-rule-${itemId}-${criterion}-${revision}`,
            );
          }
        }
        for (const swapped of k % 2 ? [0, 1] : [1]) {
          run(
            'INSERT INTO judge_labels (run_id, item_id, criterion, swapped, label) VALUES (?, ?, ?, ?, ?)',
            judgeRun,
            itemId,
            criterion,
            swapped,
            LABELS[(k + swapped) % 3],
          );
        }
      }
    }
  }
  return Object.fromEntries(TABLES.map((t) => [t, sqlite.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]));
}

describe('migration 0007 on a database made at 0006', () => {
  it('fills the packs from the rows already there, and keeps them filled afterwards', () => {
    const sqlite = new Database(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    migrate(drizzle(sqlite), { migrationsFolder: migrationsUpTo(dir, '0006_staged_imports') });
    expect(sqlite.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'annotation_packs'").pluck().get()).toBe(0);
    const before = fillBeforePacks(sqlite);
    sqlite.close();

    process.env.CONCORD_DB = file;
    const db = getDb(); // applies 0007
    const sql = db.$client;
    const after = Object.fromEntries(TABLES.map((t) => [t, sql.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]));
    expect(after).toEqual(before);
    expect(sql.prepare('SELECT count(*) FROM annotation_packs').pluck().get()).toBe(before.annotations);
    const unlabelled = sql
      .prepare('SELECT count(*) FROM annotations an WHERE NOT EXISTS (SELECT 1 FROM labels WHERE annotation_id = an.id)')
      .pluck()
      .get();
    expect(unlabelled).toBeGreaterThan(0);
    expect(sql.prepare("SELECT count(*) FROM annotation_packs WHERE packed = ''").pluck().get()).toBe(unlabelled);
    expect(sql.prepare('SELECT count(*) FROM judge_label_packs').pluck().get()).toBe(
      sql.prepare('SELECT count(*) FROM (SELECT DISTINCT run_id, item_id FROM judge_labels)').pluck().get(),
    );
    expect(sql.prepare('SELECT group_concat(criterion) FROM criterion_codes WHERE study_id = 1 ORDER BY code').pluck().get()).toBe(
      'clarity,correctness,overall,retired',
    );
    expect(packMismatches(db)).toEqual([]);
    for (const studyId of [1, 2]) expectReadersMatchRows(studyId);

    // The triggers take over from the backfill: a late label joins its backfilled pack, a new criterion gets the next code.
    const annotation = sql
      .prepare("SELECT annotation_id FROM annotation_packs WHERE study_id = 1 AND packed <> '' LIMIT 1")
      .pluck()
      .get() as number;
    sql.prepare("INSERT INTO labels (annotation_id, criterion, label) VALUES (?, 'added_later', 'win')").run(annotation);
    expect(sql.prepare("SELECT code FROM criterion_codes WHERE study_id = 1 AND criterion = 'added_later'").pluck().get()).toBe(4);
    expect(packMismatches(db)).toEqual([]);
    expectReadersMatchRows(1);
  });
});
