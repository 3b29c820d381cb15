import { getDb, type Db } from '@/db/client';
import { recoverAbandonedImports } from '../imports/import-staging';
import { clearStaleUploads } from '../imports/upload-dir';

/**
 * What every Concord process does before it touches a study: open the database (which migrates it; a failed
 * migration throws) and undo the imports whose process was killed, so nobody reads half an import. The server
 * also owns the uploads folder, and clears what a killed server left in it; the command line leaves it alone,
 * since a running server may be receiving an upload.
 */
export function openConcord({ server = false }: { server?: boolean } = {}): Db {
  const db = getDb();
  recoverAbandonedImports(db);
  if (server) clearStaleUploads();
  return db;
}
