import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { canonicalJson, contentHash } from './canonical';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('orders keys by code unit, not by locale', () => {
    expect(canonicalJson({ b: 1, B: 2, é: 3, a: 4 })).toBe('{"B":2,"a":4,"b":1,"é":3}');
  });

  it('follows JSON.stringify for undefined, toJSON and escapes', () => {
    expect(canonicalJson({ a: undefined, b: [undefined], c: new Date(0), d: 'line\n"q"' })).toBe(
      '{"b":[null],"c":"1970-01-01T00:00:00.000Z","d":"line\\n\\"q\\""}',
    );
  });

  it('throws on values JSON cannot carry faithfully', () => {
    expect(() => canonicalJson({ n: NaN })).toThrow(/NaN/);
    expect(() => canonicalJson({ n: Infinity })).toThrow(/Infinity/);
    expect(() => canonicalJson(1n)).toThrow(/bigint/);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow(/contains itself/);
    expect(() => canonicalJson(undefined)).toThrow();
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

describe('contentHash', () => {
  it('is the sha256 of the canonical text', () => {
    const value = { id: 'f-1', steps: [{ text: 'é', speaker: 'tutor' }] };
    const expected = createHash('sha256').update('{"id":"f-1","steps":[{"speaker":"tutor","text":"é"}]}', 'utf8').digest('hex');
    expect(contentHash(value)).toBe(expected);
    expect(contentHash(value)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores key order and notices any change of content', () => {
    const a = { id: 'x', problem: { text: 'p', answer: '3' }, steps: [1, 2] };
    const reordered = { steps: [1, 2], problem: { answer: '3', text: 'p' }, id: 'x' };
    expect(contentHash(reordered)).toBe(contentHash(a));
    expect(contentHash({ ...a, steps: [2, 1] })).not.toBe(contentHash(a));
    expect(contentHash({ ...a, problem: { text: 'p', answer: 3 } })).not.toBe(contentHash(a));
    expect(contentHash({ ...a, problem: { text: 'p ', answer: '3' } })).not.toBe(contentHash(a));
  });
});
