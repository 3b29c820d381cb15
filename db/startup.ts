import { recoverAbandonedImports } from '@/lib/server/imports/import-staging';
import { clearStaleUploads } from '@/lib/server/imports/upload-dir';
import { getDb } from './client';

/** A failed migration ends the process instead of serving on a schema the code does not expect. */
export function openOrExit() {
  try {
    recoverAbandonedImports(getDb());
    clearStaleUploads();
  } catch (e) {
    console.error('Concord: the database could not be opened or migrated; refusing to start.', e);
    process.exit(1);
  }
}
