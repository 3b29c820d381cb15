import fs from 'node:fs';

/*
 * The database, its -wal and -shm, and every copy of it (backups, a restore's temporary file) hold password hashes:
 * only the account that runs Concord may read them, whatever the process's umask. Folders that Concord creates for
 * them are 0700; each file is created 0600 before SQLite opens it, and SQLite gives the -wal, -shm and -journal
 * files it creates beside a database the database file's own mode. A folder that already exists is left as it is
 * (it may be shared, such as /tmp); an existing file is narrowed to its owner.
 */

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any missing parents as 0700 (no effect on folders that exist). */
export function makePrivateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Takes group and other access away from `file` if it exists and has any (a file of another owner is left alone). */
export function narrowToOwner(file: string) {
  let mode: number;
  try {
    mode = fs.statSync(file).mode;
  } catch {
    return; // not there
  }
  if ((mode & 0o077) === 0) return;
  try {
    fs.chmodSync(file, mode & 0o700);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM' && (e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** Makes sure `file` exists with mode 0600 (created empty if missing, narrowed if it exists), for SQLite to open. */
export function makePrivateFile(file: string) {
  fs.closeSync(fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, PRIVATE_FILE_MODE));
  narrowToOwner(file);
}

/** A database file and the files SQLite keeps beside it, narrowed to their owner (created 0600 if missing). */
export function makePrivateDatabaseFile(file: string) {
  makePrivateFile(file);
  for (const side of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) narrowToOwner(side);
}
