import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../client';
import { mulberry32 } from '@/lib/assign/random';
import { QUEUE_COUNTS_SQL, queueCounts } from './assignments';

const MIGRATIONS = path.join(process.cwd(), 'db', 'migrations');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-queue-counts-'));
const opened: Db[] = [];
afterAll(() => {
  for (const db of opened) db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens a new database file migrated with the committed migrations (only those before `stopAt`, when given). */
function open(name: string, stopAt?: string): Db {
  let folder = MIGRATIONS;
  if (stopAt) {
    folder = path.join(dir, `${name}-migrations`);
    fs.cpSync(MIGRATIONS, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
    const at = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith(stopAt));
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
  }
  process.env.CONCORD_MIGRATIONS = folder;
  try {
    const db = openDatabase(path.join(dir, `${name}.db`));
    opened.push(db);
    return db;
  } finally {
    delete process.env.CONCORD_MIGRATIONS;
  }
}

function seed(db: Db, users: number, studies: number, items: number) {
  const c = db.$client;
  for (let u = 1; u <= users; u++) c.prepare('INSERT INTO users (username, display_name) VALUES (?, ?)').run(`user${u}`, `User ${u}`);
  for (let s = 1; s <= studies; s++) {
    c.prepare(
      `INSERT INTO studies (kind, name, seed, principles, created_by, reviewers_per_item) VALUES ('flow_review', ?, 1, '[]', 1, 3)`,
    ).run(`Study ${s}`);
    for (let i = 1; i <= items; i++)
      c.prepare('INSERT INTO items (study_id, external_id, position, payload, content_hash) VALUES (?, ?, ?, ?, ?)').run(
        s,
        `i${i}`,
        i,
        '{}',
        `h${i}`,
      );
  }
}

/** What the counts must be: a full recount of the assignments. */
function recount(db: Db) {
  return db.$client
    .prepare(
      `SELECT study_id AS studyId, user_id AS userId, count(*) AS total, coalesce(sum(state = 'submitted'), 0) AS submitted
         FROM assignments GROUP BY study_id, user_id ORDER BY study_id, user_id`,
    )
    .all() as { studyId: number; userId: number; total: number; submitted: number }[];
}

function expectExact(db: Db, users: number, studies: number) {
  const truth = new Map(recount(db).map((r) => [`${r.studyId}/${r.userId}`, { total: r.total, submitted: r.submitted }]));
  for (let s = 1; s <= studies; s++)
    for (let u = 1; u <= users; u++)
      expect(queueCounts(db, s, u), `study ${s}, user ${u}`).toEqual(truth.get(`${s}/${u}`) ?? { total: 0, submitted: 0 });
}

describe('queue counts', () => {
  it('are filled in by the migration for assignments that already exist', () => {
    const db = open('backfill', '_queue_counts');
    seed(db, 3, 2, 20);
    const c = db.$client;
    for (let s = 1; s <= 2; s++)
      for (let i = 1; i <= 20; i++) {
        const item = (s - 1) * 20 + i;
        const user = (i % 3) + 1;
        c.prepare(`INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position, state) VALUES (?, ?, ?, 1, ?, ?)`).run(
          s,
          item,
          user,
          i,
          i % 4 === 0 ? 'submitted' : 'pending',
        );
      }
    db.$client.close();
    opened.pop();

    const migrated = open('backfill');
    expect(recount(migrated).length).toBe(6);
    expectExact(migrated, 3, 2);
  });

  it('stay exact through inserts, submits, undos, refused reassignments and deletes', () => {
    const db = open('triggers');
    const USERS = 4;
    const STUDIES = 3;
    const ITEMS = 40;
    seed(db, USERS, STUDIES, ITEMS);
    const c = db.$client;
    const next = mulberry32(20261122); // seeded: a failure can be replayed
    const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
    const live = () =>
      c.prepare('SELECT id, study_id AS studyId, item_id AS itemId FROM assignments').all() as {
        id: number;
        studyId: number;
        itemId: number;
      }[];
    let position = 0;

    for (let step = 0; step < 400; step++) {
      const rows = live();
      const r = next();
      if (r < 0.45 || rows.length === 0) {
        const study = 1 + Math.floor(next() * STUDIES);
        const item = pick(c.prepare('SELECT id FROM items WHERE study_id = ? ORDER BY id').pluck().all(study) as number[]);
        if (item === undefined) continue;
        const slot = 1 + Math.floor(next() * 3);
        const user = 1 + Math.floor(next() * USERS);
        c.prepare(
          `INSERT OR IGNORE INTO assignments (study_id, item_id, user_id, slot, queue_position, state) VALUES (?, ?, ?, ?, ?, ?)`,
        ).run(study, item, user, slot, ++position, next() < 0.2 ? 'submitted' : 'pending');
      } else if (r < 0.7) {
        c.prepare(`UPDATE assignments SET state = 'submitted', submitted_at = ? WHERE id = ? AND state = 'pending'`).run(
          step,
          pick(rows).id,
        );
      } else if (r < 0.8) {
        c.prepare(`UPDATE assignments SET state = 'pending', submitted_at = NULL WHERE id = ? AND state = 'submitted'`).run(pick(rows).id);
      } else if (r < 0.86) {
        // An assignment is never given to someone else (migration 0007 refuses it): the counts stay as they were.
        const row = pick(rows);
        const owner = c.prepare('SELECT user_id FROM assignments WHERE id = ?').pluck().get(row.id) as number;
        expect(() => c.prepare('UPDATE assignments SET user_id = ? WHERE id = ?').run((owner % USERS) + 1, row.id)).toThrow(
          /keeps its study, item, slot and reviewer/,
        );
      } else if (r < 0.95) {
        c.prepare('DELETE FROM assignments WHERE id = ?').run(pick(rows).id);
      } else {
        // Deleting an item removes its assignments through the foreign key.
        c.prepare('DELETE FROM items WHERE id = ?').run(pick(rows).itemId);
      }
      if (step % 20 === 0) expectExact(db, USERS, STUDIES);
    }
    expectExact(db, USERS, STUDIES);
    expect(recount(db).reduce((n, r) => n + r.submitted, 0)).toBeGreaterThan(0);

    // A study that is deleted takes its counts with it.
    c.prepare('DELETE FROM studies WHERE id = 2').run();
    expectExact(db, USERS, STUDIES);
    expect(c.prepare('SELECT count(*) FROM queue_counts WHERE study_id = 2').pluck().get()).toBe(0);
  });

  it('are read with one primary-key lookup, without touching the assignments', () => {
    const db = open('plan');
    const plan = db.$client.prepare(`EXPLAIN QUERY PLAN ${QUEUE_COUNTS_SQL}`).all(1, 1) as { detail: string }[];
    const details = plan.map((p) => p.detail).join('\n');
    expect(details).toMatch(
      /^SEARCH queue_counts USING PRIMARY KEY \(study_id=\? AND user_id=\?\)$|^SEARCH queue_counts USING INDEX sqlite_autoindex_queue_counts_1 \(study_id=\? AND user_id=\?\)$/,
    );
    expect(details).not.toContain('assignments');
  });
});
