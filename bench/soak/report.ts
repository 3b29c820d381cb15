/**
 * The soak's report: the load done, request timings by kind, memory and WAL over time, the run's events, the
 * checks and the failures; and whether the run passed.
 */
import { percentile } from '@/e2e/support/load';
import { HttpPerson, conditions } from '../own-server';
import type { DatabaseCheck } from './checks';
import { acks, counters, failures, pages, samples } from './measures';
import type { Watch } from './monitor';

export type SoakOutcome = {
  /** The load's duration in ms. */
  wall: number;
  watch: Watch;
  /** The server's resident memory in MB when the load ended (null when it could not be read). */
  serverMBAtEnd: number | null;
  events: string[];
  database: DatabaseCheck;
  /** The flows uploaded and the verdicts of the judge run, as asked for. */
  flows: number;
  verdicts: number;
  backup: { line: string; missing: number };
};

/** Prints the report with `log`; true when the run passed (no failure, nothing lost or doubled, all complete). */
export function printReport(log: (s: string) => void, o: SoakOutcome): boolean {
  const { wall, database: d } = o;
  const sum = (kind: string) => {
    const s = samples[kind].map((x) => x.ms).sort((a, b) => a - b);
    const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(1));
    return `| ${kind} | ${s.length.toLocaleString('en')} | ${f(percentile(s, 50))} | ${f(percentile(s, 95))} | ${f(percentile(s, 99))} | ${f(s.at(-1) ?? NaN)} |`;
  };
  log('');
  log(`load: ${(wall / 60_000).toFixed(1)} min; at the end: ${conditions()}`);
  log(
    `annotators: ${counters.submits.toLocaleString('en')} submits (${counters.doubles} sent twice at once, ${counters.retries} retried), ` +
      `${counters.undos} undone and submitted again, ${counters.drafts.toLocaleString('en')} drafts, ${counters.reloads.toLocaleString('en')} reloads; ` +
      `${(acks.length / (wall / 1000)).toFixed(1)} acknowledged submissions/s; lead: ${counters.dashboards} dashboard pages, ${counters.exports} ground-truth exports; ` +
      `${HttpPerson.resent} requests sent again after a reset before any answer`,
  );
  log('');
  log('| request | n | p50 ms | p95 ms | p99 ms | max ms |');
  log('|---|---|---|---|---|---|');
  for (const kind of Object.keys(samples)) log(sum(kind));
  log('');
  // When the slow answers came: the same percentiles minute by minute, to tell a steady cost from a burst (the
  // upload at its minute, the lead's dashboards every 30 s, a backup).
  const kinds = ['submit', 'next item', 'draft', 'dashboard'];
  log(`| minute | ${kinds.map((k) => `${k} n / p95 ms`).join(' | ')} |`);
  log(`|---|${kinds.map(() => '---').join('|')}|`);
  for (let m = 0; m * 60_000 < wall; m++) {
    const cell = (kind: string) => {
      const s = samples[kind]
        .filter((x) => x.at >= m * 60_000 && x.at < (m + 1) * 60_000)
        .map((x) => x.ms)
        .sort((a, b) => a - b);
      return s.length ? `${s.length.toLocaleString('en')} / ${percentile(s, 95).toFixed(0)}` : '—';
    };
    log(`| ${m} | ${kinds.map(cell).join(' | ')} |`);
  }
  log('');
  log('| dashboard page | n | p50 ms | p95 ms | max ms |');
  log('|---|---|---|---|---|');
  const byPage = [...pages].map(([url, ms]) => ({ url, ms: [...ms].sort((a, b) => a - b) }));
  for (const { url, ms } of byPage.sort((a, b) => percentile(b.ms, 50) - percentile(a.ms, 50))) {
    log(`| ${url} | ${ms.length} | ${percentile(ms, 50).toFixed(0)} | ${percentile(ms, 95).toFixed(0)} | ${ms.at(-1)!.toFixed(0)} |`);
  }
  log('');
  log('| minute | server RSS MB | with children MB | database MB | WAL MB | acknowledged | load 1 min |');
  log('|---|---|---|---|---|---|---|');
  for (const t of o.watch.timeline) log(t);
  log(`peak WAL ${o.watch.peakWal.toFixed(1)} MB; server RSS at the end ${o.serverMBAtEnd?.toFixed(0) ?? '—'} MB`);
  log('');
  for (const e of o.events) log(e);
  log('');
  log(
    `check: ${failures.length} failed requests; ${acks.length.toLocaleString('en')} submissions acknowledged, ${d.stored.toLocaleString('en')} stored: ` +
      `${d.lost} lost, ${d.doubled} doubled, ${d.unacked} stored without an acknowledgement; ${d.items.toLocaleString('en')} of ${o.flows.toLocaleString('en')} flows imported, ` +
      `${d.verdicts.toLocaleString('en')} of ${o.verdicts.toLocaleString('en')} verdicts stored; integrity ${d.integrity}`,
  );
  log(`backup: ${o.backup.line}`);
  const byStep = new Map<string, number>();
  for (const f of failures) byStep.set(f.step, (byStep.get(f.step) ?? 0) + 1);
  for (const [step, n] of byStep) log(`  failed ${step}: ${n}`);
  for (const f of failures.slice(0, 8)) log(`  failure: ${JSON.stringify(f)}`);
  return !(
    failures.length ||
    d.lost ||
    d.doubled ||
    d.unacked ||
    d.items !== o.flows ||
    d.verdicts !== o.verdicts ||
    d.integrity !== 'ok' ||
    o.backup.missing !== 0
  );
}
