/** Without keyboard, mouse or touch for this long, the reviewer is taken to be away and the clock stops. */
export const IDLE_AFTER_MS = 60_000;
/** A gap longer than this between two readings (a sleeping laptop, a throttled tab) counts as this much at most. */
export const MAX_STEP_MS = 5_000;

/**
 * The active time spent on one item: the time the tab is visible and the reviewer has used the keyboard, mouse or
 * touch within IDLE_AFTER_MS, counted between readings (a tick each second, and every read) so that the part since
 * the last tick is not lost when the reviewer leaves the item. Pure: the caller passes the time and visibility.
 */
export class ActiveClock {
  private total: number;
  private last: number;
  private lastInput: number;

  constructor(initialMs: number, now: number) {
    this.total = initialMs;
    this.last = now;
    this.lastInput = now;
  }

  /** A new item: its own total (the server's figure), counted from now. */
  reset(initialMs: number, now: number) {
    this.total = initialMs;
    this.last = now;
    this.lastInput = now;
  }

  input(now: number) {
    this.lastInput = now;
  }

  /** Adds the time since the last reading if the reviewer was active; returns the total. */
  read(now: number, visible: boolean): number {
    if (visible && now - this.lastInput < IDLE_AFTER_MS) this.total += Math.min(Math.max(0, now - this.last), MAX_STEP_MS);
    this.last = Math.max(this.last, now);
    return this.total;
  }
}
