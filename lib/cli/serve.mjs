#!/usr/bin/env node
/**
 * `npm start`: the production server (`next start`) in one or several processes on one port.
 *
 *   node lib/cli/serve.mjs [next start's options…]        processes: CONCORD_PROCESSES (default 1)
 *
 * With CONCORD_PROCESSES=N > 1 this process forks N workers with node:cluster; each runs `next start` with the same
 * options and the kernel's listening socket is shared, the primary handing connections round-robin. SQLite in WAL
 * mode is safe across processes and every guarantee of a submission lives in its transaction, so any worker can
 * answer any request. What must happen once per server, not once per worker (the backup schedule), runs in worker 0
 * only: each worker gets CONCORD_PROCESS_INDEX. A worker that dies is started again; SIGTERM or SIGINT stops them
 * all and ends when they have ended.
 */
import cluster from 'node:cluster';
import { createRequire } from 'node:module';

const count = Number(process.env.CONCORD_PROCESSES ?? '1');
if (!Number.isInteger(count) || count < 1 || count > 64) {
  process.stderr.write(`CONCORD_PROCESSES must be a whole number from 1 to 64, not "${process.env.CONCORD_PROCESSES}".\n`);
  process.exit(2);
}

if (count > 1 && cluster.isPrimary) {
  let stopping = false;
  const fork = (index) =>
    cluster.fork({ CONCORD_PROCESS_INDEX: String(index) }).on('exit', (code, signal) => {
      if (stopping) return;
      process.stderr.write(`Concord: server process ${index} ended (${signal ?? `exit ${code}`}); starting it again.\n`);
      // A worker that cannot start at all (a failed migration) would be restarted in a loop: after a quick death, stop.
      if (Date.now() - started[index] < 10_000) {
        process.stderr.write('Concord: it ended within 10 s of starting; stopping the server.\n');
        stop(1);
        return;
      }
      started[index] = Date.now();
      fork(index);
    });
  const started = Array.from({ length: count }, () => Date.now());
  for (let i = 0; i < count; i++) fork(i);
  const stop = (code) => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    const done = () => process.exit(code);
    if (Object.keys(cluster.workers ?? {}).length === 0) done();
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) done();
    });
  };
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
} else {
  process.env.CONCORD_PROCESS_INDEX ??= '0';
  // Exactly `next start` with the options given, in this process.
  const require = createRequire(import.meta.url);
  process.argv = [process.argv[0], require.resolve('next/dist/bin/next'), 'start', ...process.argv.slice(2)];
  require('next/dist/bin/next');
}
