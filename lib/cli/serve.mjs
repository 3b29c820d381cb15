#!/usr/bin/env node
/**
 * `npm start`: the production server (`next start`) in one or several processes on one port (decision 0049).
 *
 *   node lib/cli/serve.mjs [next start's options…]
 *
 * CONCORD_PROCESSES sets how many processes: a whole number from 1 to 64, or unset for one per core up to 4. With one,
 * this process simply is `next start`. With N > 1 it forks N workers with node:cluster, each running `next start` with
 * the same options; they share the listening socket and the primary hands connections round-robin. SQLite in WAL mode
 * is safe across processes and every guarantee of a submission lives in its transaction, so any worker can answer any
 * request; sessions are re-checked against the database on each request, and sign-in limits are kept in it.
 *
 * Start order: worker 0 opens (and migrates) the database and clears what a killed server left in the uploads and
 * backup folders (CONCORD_CLEARS_LEFTOVERS); only when it says it has are the others started, so no worker can be
 * receiving an upload that is then deleted, and only one process ever migrates. Worker 0 also keeps the backup
 * schedule (lib/server/system/server-process.ts). A worker that dies after it has opened the database is started
 * again, clearing nothing; one that dies before (a database that cannot be opened or migrated) stops the whole
 * server with exit code 1, as `next start` alone would stop, instead of being started again in a loop. SIGTERM or
 * SIGINT stops every worker and ends when they have ended.
 */
import cluster from 'node:cluster';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { processBundle } from '../bundle/process-bundle.mjs';

const DEFAULT_MAX = 4;

function processCount() {
  const given = process.env.CONCORD_PROCESSES;
  if (given === undefined || given === '') return Math.max(1, Math.min(availableParallelism(), DEFAULT_MAX));
  const n = Number(given);
  if (!/^\d+$/.test(given) || n < 1 || n > 64) {
    process.stderr.write(`CONCORD_PROCESSES must be a whole number from 1 to 64, not "${given}".\n`);
    process.exit(2);
  }
  return n;
}

/** Runs exactly `next start` with the options given, in this process. */
function nextStart() {
  const require = createRequire(import.meta.url);
  process.argv = [process.argv[0], require.resolve('next/dist/bin/next'), 'start', ...process.argv.slice(2)];
  require('next/dist/bin/next');
}

const say = (line) => process.stderr.write(`Concord: ${line}\n`);

/**
 * Builds the bundle of the processes the server starts (imports, reports, judge runs, backups) now, if the sources
 * changed since it was last built, so that the first large upload or dashboard does not wait for it. A bundle that
 * cannot be built is said here; the server still starts (what it serves in-process works), and each child it then
 * starts fails with the same message.
 */
function prepareChildren() {
  try {
    processBundle(process.cwd());
  } catch (e) {
    say(`the server's child processes could not be built from their sources:\n${e.message}`);
  }
}

if (cluster.isWorker) {
  nextStart();
} else {
  prepareChildren();
  const count = processCount();
  if (count === 1) nextStart();
  else launch(count);
}

function launch(count) {
  let stopping = false;
  let othersStarted = false;

  const fork = (index, clearsLeftovers) => {
    const env = { CONCORD_PROCESS_INDEX: String(index), CONCORD_PROCESSES: String(count) };
    if (clearsLeftovers) env.CONCORD_CLEARS_LEFTOVERS = '1';
    const worker = cluster.fork(env);
    let opened = false;
    worker.on('message', (message) => {
      if (message?.concord !== 'database-open') return;
      opened = true;
      if (index === 0 && !othersStarted) {
        othersStarted = true;
        for (let i = 1; i < count; i++) fork(i, false);
      }
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      const how = signal ?? `exit ${code}`;
      if (!opened) {
        say(`server process ${index} ended before it had opened the database (${how}); stopping the server.`);
        stop(1);
        return;
      }
      say(`server process ${index} ended (${how}); starting server process ${index} again.`);
      fork(index, false);
    });
  };

  fork(0, true);
  say(`starting ${count} server processes on one port (CONCORD_PROCESSES).`);

  function stop(code) {
    if (stopping) return;
    stopping = true;
    const alive = () => Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
    const end = () => {
      if (alive().length === 0) process.exit(code);
    };
    cluster.on('exit', end);
    for (const w of alive()) w.process.kill('SIGTERM');
    end();
  }
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));
}
