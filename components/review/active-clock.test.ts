import { describe, expect, it } from 'vitest';
import { ActiveClock, IDLE_AFTER_MS, MAX_STEP_MS } from './active-clock';

describe('ActiveClock', () => {
  it('counts the time since the last tick when read, so leaving between two ticks loses nothing', () => {
    const c = new ActiveClock(0, 0);
    expect(c.read(1_000, true)).toBe(1_000); // a tick
    expect(c.read(2_000, true)).toBe(2_000); // a tick
    expect(c.read(2_900, true)).toBe(2_900); // left the item 0.9 s after the last tick
    expect(c.read(2_900, true)).toBe(2_900); // reading twice adds nothing
  });

  it('starts from the server figure and leaves hidden and idle time out', () => {
    const c = new ActiveClock(4_000, 0);
    expect(c.read(1_000, false)).toBe(4_000); // tab hidden
    expect(c.read(2_000, true)).toBe(5_000);
    c.input(2_000);
    expect(c.read(2_000 + IDLE_AFTER_MS - 1, true)).toBe(5_000 + MAX_STEP_MS); // one long gap counts as MAX_STEP_MS at most
    expect(c.read(2_000 + IDLE_AFTER_MS + 1_000, true)).toBe(5_000 + MAX_STEP_MS); // idle for a minute: nothing counts
    c.input(2_000 + IDLE_AFTER_MS + 1_500);
    expect(c.read(2_000 + IDLE_AFTER_MS + 2_000, true)).toBe(5_000 + MAX_STEP_MS + 1_000); // back: from the last reading
  });

  it('starts a new item from its own figure, counted from the moment it is shown', () => {
    const c = new ActiveClock(0, 0);
    expect(c.read(1_000, true)).toBe(1_000);
    c.reset(250, 1_600);
    expect(c.read(2_000, true)).toBe(650); // the 0.6 s after the tick belong to the item left, not this one
  });
});
