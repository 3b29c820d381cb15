import { checkpointAndCloseDb, getDb, type Db } from '@/db/client';
import { backupConfig } from '@/lib/env';
import { recoverAbandonedImports, recoverAbandonedImportsInBackground, undoAbandonedImportsInBackground } from '../imports/import-staging';
import { clearStaleUploads } from '../imports/upload-dir';
import { resumeAbandonedJudgeRuns } from '../judges/judges';
import { clearStaleBackupPartials } from './backup';
import { serverProcess } from './server-process';

let closesAtExit = false;

/**
 * What every Concord process does before it touches a study: open the database (which migrates it; a failed
 * migration throws) and undo the imports whose process was killed, so nobody reads half an import. The command
 * line undoes them before it goes on; the server claims them at once (their studies refuse imports until the undo is
 * done) and undoes them in the background, in short transactions with pauses between them, so that health checks
 * and sign-ins are answered within seconds of a restart even when a crash left a large import behind. The server
 * also owns the uploads folder and the scheduled backups' folder, and clears what a killed server left in them
 * (uploads, half-written backups); the command line leaves them alone, since a running server may be receiving an
 * upload or writing a backup (of a server run as several processes, only the first process of a start clears them:
 * server-process.ts). Imports and judge runs are claimed by the process that owns them (its pid and a heartbeat),
 * so every server process may undo or resume what a dead one left. The server also resumes the
 * judge runs left running whose runner process is gone (a new runner sends only what has no answer yet); the
 * command line resumes a run only when asked (`judge run` with the run's name).
 */
export function openConcord({ server = false }: { server?: boolean } = {}): Db {
  const db = getDb();
  // However the process ends short of a crash (SIGTERM to the server, a command's last line), the database is left whole.
  if (!closesAtExit) process.once('exit', checkpointAndCloseDb);
  closesAtExit = true;
  if (!server) {
    recoverAbandonedImports(db);
    return db;
  }
  const me = serverProcess();
  if (me.clearsLeftovers) {
    clearStaleUploads();
    clearStaleBackupPartials(backupConfig().dir);
  }
  // To the launcher (lib/cli/serve.mjs): this process could open the database (and, if it was its task, has cleared
  // the leftovers), so the other processes may start, and should this one die later it is started again.
  if (me.launched) process.send?.({ concord: 'database-open' });
  undoAbandonedImportsInBackground();
  void recoverAbandonedImportsInBackground(db).then((n) => {
    if (n) console.log(`Concord: undid ${n} import(s) left unfinished by a process that died.`);
  });
  resumeAbandonedJudgeRuns(db);
  return db;
}
