import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, withoutWaitingForDisk } from './client';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-nowait-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('withoutWaitingForDisk', () => {
  const file = path.join(dir, 'concord.db');
  const db = openDatabase(file);
  const sync = () => db.$client.pragma('synchronous', { simple: true });
  db.$client.exec('CREATE TABLE scratch (x INTEGER)');

  it('commits its write with synchronous = NORMAL and puts FULL back after', () => {
    const seen = withoutWaitingForDisk(db, () => {
      db.$client.prepare('INSERT INTO scratch VALUES (1)').run();
      return sync();
    });
    expect(seen).toBe(1);
    expect(sync()).toBe(2);
    expect(db.$client.prepare('SELECT count(*) FROM scratch').pluck().get()).toBe(1);
  });

  it('puts FULL back when the write throws', () => {
    expect(() =>
      withoutWaitingForDisk(db, () => {
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(sync()).toBe(2);
  });

  it("leaves a transaction at FULL: the transaction's own commit decides", () => {
    const seen = db.$client.transaction(() => withoutWaitingForDisk(db, sync))();
    expect(seen).toBe(2);
    expect(sync()).toBe(2);
  });
});
