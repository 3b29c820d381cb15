/**
 * One test per reference vector in `test/fixtures/stats/vectors.json` (STATS.md §9). The dispatcher
 * maps each vector's `metric` to this module's functions and compares every expected field
 * within the vector's absolute tolerance. A metric the dispatcher does not know fails.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { computeVector, type Vector } from './vectors.dispatch';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The vectors are small data kept in the repository, so the statistics can be checked from any clone.
const vectorsFile = path.join(repoRoot, 'test', 'fixtures', 'stats', 'vectors.json');

function loadVectors(): Vector[] {
  let text: string;
  try {
    text = readFileSync(vectorsFile, 'utf8');
  } catch (e) {
    throw new Error(
      `Reference vectors not found at ${vectorsFile} (${(e as Error).message}). ` +
        'It is part of the repository: restore test/fixtures/stats/vectors.json from git.',
    );
  }
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error(`${vectorsFile} holds no vectors`);
  return parsed as Vector[];
}

const vectors = loadVectors();

/** Compares `actual` with `expected` recursively; numbers within `tol`, null must be null. */
function expectMatches(actual: unknown, expected: unknown, tol: number, where: string): void {
  if (expected === null) {
    expect(actual, `${where} should be undefined (null)`).toBeNull();
  } else if (typeof expected === 'number') {
    expect(typeof actual, `${where} should be a number`).toBe('number');
    const diff = Math.abs((actual as number) - expected);
    expect(diff, `${where}: got ${String(actual)}, expected ${expected} ± ${tol}`).toBeLessThanOrEqual(tol);
  } else if (typeof expected === 'string' || typeof expected === 'boolean') {
    expect(actual, where).toBe(expected);
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), `${where} should be an array`).toBe(true);
    const a = actual as unknown[];
    expect(a.length, `${where} length`).toBe(expected.length);
    expected.forEach((e, i) => expectMatches(a[i], e, tol, `${where}[${i}]`));
  } else if (typeof expected === 'object') {
    expect(actual !== null && typeof actual === 'object', `${where} should be an object`).toBe(true);
    const a = actual as Record<string, unknown>;
    for (const [k, e] of Object.entries(expected)) {
      expect(Object.prototype.hasOwnProperty.call(a, k), `${where}.${k} is not computed`).toBe(true);
      expectMatches(a[k], e, tol, `${where}.${k}`);
    }
  } else {
    throw new Error(`${where}: unsupported expected value ${String(expected)}`);
  }
}

describe('reference vectors (STATS.md §9)', () => {
  it('are well formed and uniquely named', () => {
    const names = new Set<string>();
    for (const v of vectors) {
      expect(typeof v.name, 'vector name').toBe('string');
      expect(typeof v.metric, `${v.name}: metric`).toBe('string');
      expect(typeof v.tol === 'number' && v.tol >= 0, `${v.name}: tol`).toBe(true);
      expect('expected' in v, `${v.name}: expected`).toBe(true);
      expect(names.has(v.name), `duplicate vector ${v.name}`).toBe(false);
      names.add(v.name);
    }
  });

  for (const v of vectors) {
    it(`${v.name} [${v.metric}]`, () => {
      const actual = computeVector(v);
      expectMatches(actual, v.expected, v.tol, v.name);
    });
  }
});
