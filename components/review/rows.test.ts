import { describe, expect, it } from 'vitest';
import { nextWithout, rowMove, rulingsOf } from './rows';

const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }];

describe('nextWithout', () => {
  it('starts at the top with -1 and skips rows that have an answer', () => {
    expect(nextWithout(rows, {}, -1)).toBe(0);
    expect(nextWithout(rows, { a: 'x', b: 'y' }, -1)).toBe(2);
  });

  it('looks after the given row first, then wraps round to the start', () => {
    expect(nextWithout(rows, { c: 'x' }, 1)).toBe(3);
    expect(nextWithout(rows, { d: 'x' }, 2)).toBe(0);
    // The row itself is the last one looked at.
    expect(nextWithout(rows, { a: 'x', b: 'x', d: 'x' }, 2)).toBe(2);
  });

  it('is null once every row has an answer, and for no rows', () => {
    expect(nextWithout(rows, { a: 1, b: 1, c: 1, d: 1 }, 0)).toBeNull();
    expect(nextWithout([], {}, -1)).toBeNull();
  });

  it('counts an empty answer as none', () => {
    expect(nextWithout(rows, { a: '', b: 'x' }, -1)).toBe(0);
  });
});

describe('rowMove', () => {
  it('moves down with j and ↓, stopping at the last row', () => {
    expect(rowMove('j', 1, 4)).toBe(2);
    expect(rowMove('ArrowDown', 2, 4)).toBe(3);
    expect(rowMove('j', 3, 4)).toBe(3);
  });

  it('moves up with k and ↑, stopping at the first row', () => {
    expect(rowMove('k', 2, 4)).toBe(1);
    expect(rowMove('ArrowUp', 1, 4)).toBe(0);
    expect(rowMove('k', 0, 4)).toBe(0);
  });

  it('leaves every other key to the screen', () => {
    for (const key of ['J', 'i', 'u', 'Enter', '1', 'ArrowLeft']) expect(rowMove(key, 1, 4)).toBeNull();
  });
});

describe('rulingsOf', () => {
  const disputed = [{ id: 'a' }, { id: 'c' }];

  it('sends the answers of the disputed rows only', () => {
    expect(rulingsOf(disputed, { a: 'r1', b: 'tie', c: 'r2' }, {}).answers).toEqual({ a: 'r1', c: 'r2' });
  });

  it('sends rationales trimmed, for disputed rows only, and leaves out the empty ones', () => {
    const { rationales } = rulingsOf(disputed, { a: 'x', c: 'y' }, { a: '  both missed it \n', b: 'agreed row', c: '   ' });
    expect(rationales).toEqual({ a: 'both missed it' });
  });
});
