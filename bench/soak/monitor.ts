/**
 * What watches the server during the soak: a probe asking `/api/health` every second, and every 10 s the server's
 * memory, the database and its WAL (a row of the report's timeline every minute).
 */
import os from 'node:os';
import type { OwnServer } from '@/e2e/support/server';
import { fileMB, serverMemory, sleep } from '../own-server';
import { acks, failures, now, samples } from './measures';

/** Asks `/api/health` every second until `until` on the load's clock, each on a new connection. */
export async function probeHealth(baseURL: string, until: number) {
  while (now() < until) {
    const t = performance.now();
    const ok = await fetch(`${baseURL}/api/health`, { headers: { connection: 'close' } }).then(
      (r) => r.status,
      () => 0,
    );
    const ms = performance.now() - t;
    samples.health.push({ at: now() - ms, ms });
    if (ok !== 200) failures.push({ who: 'probe', step: 'health', status: ok, detail: '' });
    await sleep(1000);
  }
}

export type Watch = {
  /** One report row a minute: minute, server RSS, with children, database MB, WAL MB, acknowledged, load. */
  timeline: string[];
  peakWal: number;
};

/** Measures the server's memory, the database `db` and its WAL every 10 s until 5 s after `until`, into `into`. */
export async function watchServer(server: OwnServer, db: string, until: number, into: Watch) {
  for (let k = 0; now() < until + 5_000; k++) {
    const mem = serverMemory(server);
    const wal = fileMB(`${db}-wal`);
    into.peakWal = Math.max(into.peakWal, wal);
    if (k % 6 === 0) {
      into.timeline.push(
        `| ${(now() / 60_000).toFixed(0)} | ${mem?.serverMB.toFixed(0) ?? '—'} | ${mem?.groupMB.toFixed(0) ?? '—'} | ${fileMB(db).toFixed(0)} | ${wal.toFixed(1)} | ` +
          `${acks.length.toLocaleString('en')} | ${os.loadavg()[0].toFixed(2)} |`,
      );
    }
    await sleep(10_000);
  }
}
