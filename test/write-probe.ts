// A separate process that writes a small row every few milliseconds, as sign-ins and submissions do, and reports how
// long each write waited for the database, for tests of what a long-running writer in another process does to them.
// Usage: CONCORD_DB=… node --import tsx test/write-probe.ts — prints "ready", writes until its stdin ends, then
// prints {"writes","maxMs","failures"} as one JSON line.
import Database from 'better-sqlite3';

const db = new Database(process.env.CONCORD_DB!, { fileMustExist: true });
db.pragma('busy_timeout = 5000'); // the server's (db/client.ts)
const write = db.prepare("INSERT INTO audit_log (action, detail) VALUES ('write-probe', NULL)");
const tx = db.transaction(() => write.run());
let writes = 0;
let maxMs = 0;
const failures: string[] = [];
let done = false;
process.stdin.on('end', () => (done = true));
process.stdin.resume();
process.stdout.write('ready\n');
const tick = () => {
  if (done) {
    db.close();
    process.stdout.write(`${JSON.stringify({ writes, maxMs: Math.round(maxMs), failures })}\n`);
    return;
  }
  const started = performance.now();
  try {
    tx.immediate();
    writes++;
  } catch (e) {
    failures.push(String((e as Error).message));
  }
  maxMs = Math.max(maxMs, performance.now() - started);
  setTimeout(tick, 5);
};
tick();
