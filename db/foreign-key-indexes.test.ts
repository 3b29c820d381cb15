import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-fk-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type ForeignKey = { table: string; from: string; to: string };

/**
 * Deleting a parent row makes SQLite look up its children in every table that references it: without an index
 * whose leading column is the referencing column, that lookup scans the whole child table once per deleted row
 * (undoing a 2,000-item import batch held the write lock for seconds). A composite foreign key needs its columns,
 * in order, at the front of one index.
 */
describe('foreign keys', () => {
  it('each lead some index of their table, so deleting a parent never scans a child table', () => {
    const sqlite = openDatabase(path.join(dir, 'concord.db')).$client;
    try {
      const tables = sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'")
        .pluck()
        .all() as string[];
      const foreignKeys: ForeignKey[] = [];
      const unindexed: string[] = [];
      for (const table of tables) {
        const keys = sqlite.pragma(`foreign_key_list("${table}")`) as { id: number; seq: number; table: string; from: string }[];
        const byId = new Map<number, { to: string; columns: string[] }>();
        for (const k of [...keys].sort((a, b) => a.seq - b.seq)) {
          const fk = byId.get(k.id) ?? { to: k.table, columns: [] };
          fk.columns.push(k.from);
          byId.set(k.id, fk);
        }
        // The leading columns of every index of the table (a primary key counts: it is an index, or the rowid).
        const leads: string[][] = [];
        const pk = (sqlite.pragma(`table_info("${table}")`) as { name: string; pk: number }[])
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name);
        if (pk.length) leads.push(pk);
        for (const index of sqlite.pragma(`index_list("${table}")`) as { name: string; partial: number }[]) {
          if (index.partial) continue; // a partial index does not serve every lookup
          const cols = (sqlite.pragma(`index_info("${index.name}")`) as { seqno: number; name: string }[])
            .sort((a, b) => a.seqno - b.seqno)
            .map((c) => c.name);
          leads.push(cols);
        }
        for (const { to, columns } of byId.values()) {
          foreignKeys.push({ table, from: columns.join(', '), to });
          const covered = leads.some((cols) => columns.every((c) => cols.slice(0, columns.length).includes(c)));
          if (!covered) unindexed.push(`${table}(${columns.join(', ')}) → ${to}`);
        }
      }
      expect(foreignKeys.length).toBeGreaterThan(30); // the walk really saw the schema's foreign keys
      expect(unindexed).toEqual([]);
    } finally {
      sqlite.close();
    }
  });
});
