/**
 * What the soak records while it runs, shared by the annotators, the lead, the monitor and the report: request
 * timings by kind, failed requests, acknowledged submissions, counters, and the load's clock.
 */
import type { Reply } from '../own-server';

export type Sample = { at: number; ms: number };
export type Failure = { who: string; step: string; status: number; detail: string };
export type Ack = { username: string; assignmentId: number; requestId: string; at: number };

/** Request timings by kind, in the order the report prints them. */
export const samples: Record<string, Sample[]> = {
  submit: [],
  'next item': [],
  draft: [],
  reload: [],
  undo: [],
  dashboard: [],
  health: [],
  export: [],
};
/** The lead's dashboard timings by page (the path with each study's number), to name the costly pages. */
export const pages = new Map<string, number[]>();
export const failures: Failure[] = [];
/** Every submission the server acknowledged, checked against the database and the newest backup at the end. */
export const acks: Ack[] = [];
export const counters = { submits: 0, doubles: 0, retries: 0, undos: 0, reloads: 0, drafts: 0, dashboards: 0, exports: 0 };

let t0 = 0;
/** Starts the load's clock: `now()` is the time in ms since. */
export function startClock() {
  t0 = performance.now();
}
export const now = () => performance.now() - t0;

/**
 * The time at which something of the full 20-minute schedule happens in a run of `minutes`: as scheduled for 20
 * minutes or more, compressed for a shorter run.
 */
export const schedule =
  (minutes: number) =>
  (ms: number): number =>
    Math.min(ms, (ms / (20 * 60_000)) * minutes * 60_000);

export function record(kind: string, r: Reply) {
  samples[kind].push({ at: now() - r.ms, ms: r.ms });
}

/** Whether `r` went as expected (by default: answered 200); if not, it is kept as a failure of `who` at `step`. */
export function check(who: string, step: string, r: Reply, ok = r.status === 200): boolean {
  if (!ok) failures.push({ who, step, status: r.status, detail: r.text.slice(0, 300) });
  return ok;
}

/** The body of a JSON answer `{ ok: true, data }`, or null. */
export const data = <T>(r: Reply): T | null => {
  const b = r.body as { ok?: boolean; data?: T } | null;
  return r.status === 200 && b?.ok === true && b.data !== undefined ? b.data : null;
};
