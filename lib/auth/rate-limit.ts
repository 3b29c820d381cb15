/**
 * A token bucket per key (an API token's id), in this process's memory: `burst` requests at once, refilled at
 * `rate` a second. It lives in this process only: a restart forgets it (erring on the caller's side), and several
 * server processes would each hold their own bucket (docs/api.md says so).
 */
export class RateLimiter {
  private buckets = new Map<number, { tokens: number; at: number }>();

  constructor(
    readonly rate: number,
    readonly burst: number,
  ) {}

  /** Takes one request from `key`'s bucket: null when allowed, else the seconds until one is free again. */
  take(key: number, now = Date.now()): number | null {
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.rate);
    b.at = now;
    this.buckets.set(key, b);
    if (this.buckets.size > 10_000) this.forgetFull(now);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.rate));
  }

  /** Drops buckets that have refilled completely: they hold nothing a fresh bucket would not. */
  private forgetFull(now: number) {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.rate >= this.burst) this.buckets.delete(key);
    }
  }
}
