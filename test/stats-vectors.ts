/**
 * The harness of the reference-vector tests of STATS-2 and STATS-3 (`lib/stats/vectors-2.test.ts`,
 * `vectors-3.test.ts`): one test per vector of a file in `test/fixtures/stats/`, every expected number checked as
 * |actual − expected| ≤ tol + rtol·|expected|, integer literals (counts) exactly, strings and booleans exactly, null as
 * null with the reason `null_reasons` names (STATS-2.md §1.2–1.3). The dispatcher maps each vector's `metric` to the
 * statistics; a metric it does not know fails.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..');
// The vectors are small data kept in the repository, so the statistics can be checked from any clone.

/** An integer literal of the JSON file (a count), compared exactly. */
class IntLiteral {
  constructor(readonly value: number) {}
}

/**
 * Parses the vectors keeping integer literals apart from floats: `5` is a count, `5.0` a float
 * (JSON.parse alone cannot tell them apart).
 */
function parseKeepingIntegers(text: string): unknown {
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (tok) =>
    /^-?\d+$/.test(tok) ? `{"$int":${tok}}` : tok,
  );
  const revive = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(revive);
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && keys[0] === '$int') return new IntLiteral(o.$int as number);
      return Object.fromEntries(keys.map((k) => [k, revive(o[k])]));
    }
    return v;
  };
  return revive(JSON.parse(marked));
}

/** Plain numbers again, for the parts of a vector the dispatcher reads (inputs, tolerances). */
function plain(v: unknown): unknown {
  if (v instanceof IntLiteral) return v.value;
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** The fields every reference vector of STATS-2 and STATS-3 has (STATS-2.md §1.1). */
export interface ReferenceVector {
  readonly name: string;
  readonly metric: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly expected: unknown;
  readonly tol: number;
  readonly rtol?: number;
  readonly null_reasons?: Readonly<Record<string, string>>;
}

interface Loaded<V> {
  readonly vector: V;
  /** `expected` with integer literals marked. */
  readonly expected: unknown;
}

function loadVectors<V extends ReferenceVector>(file: string): Loaded<V>[] {
  const vectorsFile = path.join(repoRoot, 'test', 'fixtures', 'stats', file);
  let text: string;
  try {
    text = readFileSync(vectorsFile, 'utf8');
  } catch (e) {
    throw new Error(
      `Reference vectors not found at ${vectorsFile} (${(e as Error).message}). ` +
        `It is part of the repository: restore test/fixtures/stats/${file} from git.`,
    );
  }
  const parsed = parseKeepingIntegers(text);
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error(`${vectorsFile} holds no vectors`);
  return parsed.map((raw) => {
    const r = raw as Record<string, unknown>;
    return { vector: plain(r) as V, expected: r.expected };
  });
}

function expectMatches(actual: unknown, expected: unknown, tol: number, rtol: number, where: string): void {
  if (expected === null) {
    expect(actual, `${where} should be undefined (null)`).toBeNull();
  } else if (expected instanceof IntLiteral) {
    expect(Number.isInteger(actual), `${where} should be an integer count, got ${String(actual)}`).toBe(true);
    expect(actual, where).toBe(expected.value);
  } else if (typeof expected === 'number') {
    expect(typeof actual, `${where} should be a number, got ${String(actual)}`).toBe('number');
    const diff = Math.abs((actual as number) - expected);
    const bound = tol + rtol * Math.abs(expected);
    expect(diff, `${where}: got ${String(actual)}, expected ${expected} ± ${bound}`).toBeLessThanOrEqual(bound);
  } else if (typeof expected === 'string' || typeof expected === 'boolean') {
    expect(actual, where).toBe(expected);
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), `${where} should be an array`).toBe(true);
    const a = actual as unknown[];
    expect(a.length, `${where} length`).toBe(expected.length);
    expected.forEach((e, i) => expectMatches(a[i], e, tol, rtol, `${where}[${i}]`));
  } else if (typeof expected === 'object') {
    expect(actual !== null && typeof actual === 'object', `${where} should be an object`).toBe(true);
    const a = actual as Record<string, unknown>;
    for (const [k, e] of Object.entries(expected)) {
      expect(Object.prototype.hasOwnProperty.call(a, k), `${where}.${k} is not computed`).toBe(true);
      expectMatches(a[k], e, tol, rtol, `${where}.${k}`);
    }
  } else {
    throw new Error(`${where}: unsupported expected value ${String(expected)}`);
  }
}

/**
 * Concrete paths of a `null_reasons` key (STATS-2.md §1.3, used by STATS-3 too): `a.b`, `a[3]`, and `a[129:]` expanded
 * over the expected array.
 */
function expandPath(key: string, expected: unknown): string[] {
  const m = /^(.*)\[(\d+):\]$/.exec(key);
  if (!m) return [key];
  const arr = (plain(expected) as Record<string, unknown>)[m[1]];
  if (!Array.isArray(arr)) throw new Error(`null_reasons path ${key} does not name an array`);
  const from = Number(m[2]);
  return Array.from({ length: arr.length - from }, (_, k) => `${m[1]}[${from + k}]`);
}

/**
 * Declares the tests of one vector file: that it holds exactly `counts` vectors per metric, well formed and uniquely
 * named, and one test per vector through `compute`.
 */
export function describeVectors<V extends ReferenceVector>(opts: {
  title: string;
  file: string;
  counts: Record<string, number>;
  compute: (v: V) => { actual: unknown; reasons: Record<string, string> };
}): void {
  const vectors = loadVectors<V>(opts.file);
  const total = Object.values(opts.counts).reduce((a, b) => a + b, 0);
  describe(opts.title, () => {
    it(`are the ${total} vectors of ${opts.file}, well formed and uniquely named`, () => {
      const names = new Set<string>();
      const perMetric: Record<string, number> = {};
      for (const { vector: v } of vectors) {
        expect(typeof v.name, 'vector name').toBe('string');
        expect(typeof v.metric, `${v.name}: metric`).toBe('string');
        expect(typeof v.tol === 'number' && v.tol >= 0, `${v.name}: tol`).toBe(true);
        expect('expected' in v, `${v.name}: expected`).toBe(true);
        expect(names.has(v.name), `duplicate vector ${v.name}`).toBe(false);
        names.add(v.name);
        perMetric[v.metric] = (perMetric[v.metric] ?? 0) + 1;
      }
      expect(perMetric).toEqual(opts.counts);
    });

    for (const { vector: v, expected } of vectors) {
      it(`${v.name} [${v.metric}]`, () => {
        const { actual, reasons } = opts.compute(v);
        expectMatches(actual, expected, v.tol, v.rtol ?? 0, v.name);
        for (const [key, reason] of Object.entries(v.null_reasons ?? {})) {
          for (const p of expandPath(key, expected)) {
            expect(reasons[p], `${v.name}: reason of ${p}`).toBe(reason);
          }
        }
      });
    }
  });
}
