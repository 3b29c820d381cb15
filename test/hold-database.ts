import { spawn } from 'node:child_process';

/**
 * Another process with the database `file` open, as a running server has it: WAL mode, one row written to
 * `app_settings` (key `held-by-<pid>`) and not checkpointed. `kill9()` ends it as a crash would, leaving its WAL.
 */
export async function holdDatabase(file: string): Promise<{ pid: number; kill9: () => Promise<void> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1], { fileMustExist: true });
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.prepare('INSERT INTO app_settings (key, value) VALUES (?, ?)').run('held-by-' + process.pid, 'x');
    process.stdout.write('ready\\n');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the holding process exited (${code}) before it had the database open`)));
  });
  return {
    pid: child.pid!,
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
