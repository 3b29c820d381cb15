import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WAL_SIZE_LIMIT, openDatabase } from './client';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-wal-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the write-ahead log', () => {
  it('is cut back to WAL_SIZE_LIMIT after a large transaction has been checkpointed', () => {
    const file = path.join(dir, 'concord.db');
    const db = openDatabase(file).$client;
    const wal = () => fs.statSync(`${file}-wal`).size;
    db.exec('CREATE TABLE scratch (x BLOB)');
    // One transaction of 1.5 × the limit, as a large import writes while a backup holds an old snapshot.
    const insert = db.prepare('INSERT INTO scratch VALUES (randomblob(?))');
    db.transaction(() => {
      for (let i = 0; i < (1.5 * WAL_SIZE_LIMIT) / 65536; i++) insert.run(65536);
    })();
    expect(wal()).toBeGreaterThan(1.4 * WAL_SIZE_LIMIT);
    db.pragma('wal_checkpoint(PASSIVE)');
    db.exec('INSERT INTO scratch VALUES (1)'); // the next write starts the log again from the top
    expect(wal()).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
    db.close();
  });
});
