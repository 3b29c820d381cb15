import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { getDb } from '@/db/client';
import type { Actor } from '../actor';
import { forbidden, invalid } from '../errors';
import type { BackupDto } from './dto';

/**
 * An online, consistent copy of the database through SQLite's backup API: people can keep working while it
 * runs. The copy is checked with `PRAGMA integrity_check` before it is reported as done.
 */
export async function backupDatabase(actor: Actor, target: string): Promise<BackupDto> {
  if (actor.role !== 'admin') throw forbidden('Only an admin can back up the database.');
  const file = path.resolve(target);
  if (fs.existsSync(file)) throw invalid(`${target} already exists; choose a new file name.`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await getDb().$client.backup(file);
  const copy = new Database(file, { readonly: true });
  try {
    const result = copy.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new Error(`The backup at ${file} failed its integrity check: ${String(result)}`);
  } finally {
    copy.close();
  }
  return { file, bytes: fs.statSync(file).size, integrity: 'ok' };
}
