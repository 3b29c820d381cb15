import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('allows a burst, then refuses with the seconds to wait, then refills at its rate', () => {
    const limiter = new RateLimiter(2, 3);
    const t = 1_000_000;
    expect([limiter.take(1, t), limiter.take(1, t), limiter.take(1, t)]).toEqual([null, null, null]);
    expect(limiter.take(1, t)).toBe(1);
    expect(limiter.take(2, t)).toBeNull();
    expect(limiter.take(1, t + 499)).toBe(1);
    expect(limiter.take(1, t + 500)).toBeNull();
    expect(limiter.take(1, t + 500)).toBe(1);
    // A long pause refills to the burst, never beyond it.
    const later = t + 60_000;
    expect([limiter.take(1, later), limiter.take(1, later), limiter.take(1, later), limiter.take(1, later)]).toEqual([null, null, null, 1]);
  });

  it('says how long to wait at a slow rate', () => {
    const limiter = new RateLimiter(0.1, 1);
    expect(limiter.take(7, 0)).toBeNull();
    expect(limiter.take(7, 0)).toBe(10);
    expect(limiter.take(7, 5_000)).toBe(5);
  });
});
