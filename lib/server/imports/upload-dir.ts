import fs from 'node:fs';
import path from 'node:path';
import { databasePath } from '@/lib/env';

// Not marked server-only: the start-up hook (instrumentation) imports it outside the React server layer.

/** Uploads wait beside the database (same disk, same owner), in a folder only this server uses. */
export function uploadsDir(): string {
  return path.join(path.dirname(databasePath()), 'uploads');
}

/**
 * Removes uploads left by a server that was killed mid-request: an upload never outlives the request that
 * brought it, so at start-up everything in the folder is stale.
 */
export function clearStaleUploads() {
  fs.rmSync(uploadsDir(), { recursive: true, force: true });
}
