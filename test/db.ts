import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { closeDb, getDb } from '@/db/client';
import type { Actor } from '@/lib/server/actor';
import { cliActor } from '@/lib/server/system/system';
import { createUser } from '@/lib/server/accounts/users';

/**
 * Gives a test file its own SQLite file, created from the committed migrations, and removes it afterwards.
 * Service tests run against it exactly as the app does: no mocks.
 */
export function useTestDatabase() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-test-'));
  process.env.CONCORD_DB = path.join(dir, 'test.db');
  beforeAll(() => {
    getDb();
  });
  afterAll(() => {
    closeDb();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir };
}

export async function makeUser(username: string, role: Actor['role'] = 'annotator'): Promise<Actor> {
  const dto = await createUser(cliActor(), { username, displayName: username.toUpperCase(), password: 'password-123', role });
  return { id: dto.id, username: dto.username, displayName: dto.displayName, role: dto.role };
}

export function writeTemp(dir: string, name: string, content: string | Buffer) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}
