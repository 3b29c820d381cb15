import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHostileCorpus, hostileCatalogs, writeBigFlowFile, type HostileCase } from '@/test/hostile-corpus';
import { criteriaCatalogSchema } from '@/lib/validation/pairwise';
import { zodIssuesToImportErrors } from '@/lib/validation/import-errors';
import { csvLine } from './csv';
import { readJsonlSync } from './jsonl';
import { flowRecords } from '@/lib/kinds/flow/records';
import { annotationRecords, judgeRecords, pairwiseRecords } from '@/lib/kinds/pairwise/records';
import type { RecordResult } from './records';

/*
 * The hostile corpus (test/hostile-corpus.ts) through the line reader and the record schemas alone:
 * every problem a file holds that does not need the database is found, on the right line and field, and
 * reading stays within bounded memory however big the file is. The same files go through the real
 * importers in lib/server/imports/hostile-import.test.ts.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-hostile-io-'));
let corpus: HostileCase[];

beforeAll(() => {
  corpus = generateHostileCorpus(dir);
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function records(c: HostileCase): Iterable<RecordResult<unknown>> {
  switch (c.target) {
    case 'flow':
      return flowRecords(c.file, 'concord');
    case 'mathdial':
      return flowRecords(c.file, 'mathdial');
    case 'pairwise':
      return pairwiseRecords(c.file, 'concord');
    case 'annotations':
      return annotationRecords(c.file, 'concord');
    case 'judge':
      return judgeRecords(c.file, 'concord', c.judgeName);
  }
}

/** Reads a case to the end: its problems, how many records, and the highest RSS growth seen on the way. */
function readAll(c: HostileCase) {
  const errors: { line: number; path: string; message: string }[] = [];
  let count = 0;
  const rss0 = process.memoryUsage().rss;
  let peak = 0;
  for (const r of records(c)) {
    count++;
    if (!r.ok) errors.push(...r.errors);
    if (count % 500 === 0) peak = Math.max(peak, process.memoryUsage().rss - rss0);
  }
  peak = Math.max(peak, process.memoryUsage().rss - rss0);
  return { errors, count, peak };
}

describe('the hostile corpus', () => {
  it('has at least 40 files, generated at test time', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(new Set(corpus.map((c) => c.name)).size).toBe(corpus.length);
    for (const c of corpus) expect(fs.existsSync(c.file)).toBe(true);
  });
});

describe('each hostile file, read and validated without a database', () => {
  // One test per file, named after it, so a failure says which file.
  const names = generateNames();
  it.each(names)('%s: problems on the expected lines and fields', (name) => {
    const c = corpus.find((x) => x.name === name)!;
    if (c.big) return; // the big ones have their own tests below
    const { errors, count } = readAll(c);
    const expected = c.errors.filter((e) => e.stage === 'record');
    expect(
      errors.map((e) => `${e.line}:${e.path}`),
      c.name,
    ).toEqual(expected.map((e) => `${e.line}:${e.path}`));
    expected.forEach((e, i) => {
      if (e.message) expect(errors[i].message, `${c.name} line ${e.line} ${e.path}`).toMatch(e.message);
      expect(errors[i].message.length).toBeGreaterThan(0);
    });
    if (c.noRecords) expect(count).toBe(0);
  });
});

/** The case names, known before the corpus is generated (it.each needs them at collection time). */
function generateNames(): string[] {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-hostile-names-'));
  try {
    // Generating with a tiny big file is cheap; only the names are used.
    return generateHostileCorpus(probe, { bigFileBytes: 1000 }).map((c) => c.name);
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

describe('big files', () => {
  it('accepts a valid 5 MB line and reports only the bad line after it', () => {
    const c = corpus.find((x) => x.name === 'five-mb-line-valid')!;
    expect(c.bytes).toBeGreaterThan(5_000_000);
    const { errors, count } = readAll(c);
    expect(count).toBe(2);
    expect(errors.map((e) => `${e.line}:${e.path}`)).toEqual(['2:steps']);
  });

  it('refuses the same 5 MB line under a lower limit, naming the limit', () => {
    const c = corpus.find((x) => x.name === 'five-mb-line-valid')!;
    const results = [...readJsonlSync(c.file, { maxLineBytes: 4 * 1024 * 1024 })];
    expect(results[0]).toMatchObject({ line: 1, ok: false, error: { line: 1, path: '', message: 'line is longer than the 4 MiB limit' } });
    expect(results[1]).toMatchObject({ line: 2, ok: true });
  });

  it('refuses a 17 MiB line at its number and keeps reading after it', () => {
    const c = corpus.find((x) => x.name === 'seventeen-mib-line')!;
    expect(c.bytes).toBeGreaterThan(17 * 1024 * 1024);
    const { errors } = readAll(c);
    expect(errors.map((e) => `${e.line}:${e.path}`)).toEqual(['2:', '3:id']);
    expect(errors[0].message).toBe('line is longer than the 16 MiB limit');
  });

  it('streams a 200 MB file in bounded memory and finds the one bad line near its end', () => {
    // Peak RSS only rises: two 50 MB files first let it settle at what reading costs (mostly GC slack);
    // four times the bytes must then barely raise it.
    const warm = path.join(dir, 'warm-up-50mb.jsonl');
    const w = writeBigFlowFile(warm, 50_000_000, 20_000, 49_900_000);
    for (let round = 0; round < 2; round++) {
      expect(readAll({ name: 'warm', target: 'flow', file: warm, bytes: 0, errors: [] }).errors.map((e) => e.line)).toEqual([w.badLine]);
    }
    fs.rmSync(warm);

    const c = corpus.find((x) => x.name === 'two-hundred-mb')!;
    expect(c.bytes).toBeGreaterThanOrEqual(200_000_000);
    const badLine = c.errors[0].line;
    const peakBefore = process.resourceUsage().maxRSS * 1024;
    const { errors, count, peak } = readAll(c);
    const peakGrowth = process.resourceUsage().maxRSS * 1024 - peakBefore;
    expect(errors.map((e) => `${e.line}:${e.path}`)).toEqual([`${badLine}:steps[1].speaker`]);
    expect(errors[0].message).toMatch(/tutor, student/);
    // The bad line is near the end, so the whole file was read.
    expect(badLine).toBeGreaterThan(count - 10);
    expect(peakGrowth, `peak RSS grew by ${Math.round(peakGrowth / 1e6)} MB reading ${Math.round(c.bytes / 1e6)} MB`).toBeLessThan(
      c.bytes / 4,
    );
    expect(peak, `RSS grew by ${Math.round(peak / 1e6)} MB while reading`).toBeLessThan(c.bytes / 4);
  }, 60_000);
});

describe('prototype keys', () => {
  it('never pollute Object.prototype, and are dropped from what is kept', () => {
    const c = corpus.find((x) => x.name === 'prototype-keys')!;
    const values = [...flowRecords(c.file, 'concord')].filter((r) => r.ok).map((r) => (r as { value: object }).value);
    expect(values).toHaveLength(4);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(values[0], '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(values[0])).toBe(Object.prototype);
    expect(JSON.stringify(values[0])).not.toContain('polluted');
    const ann = corpus.find((x) => x.name === 'annotations-prototype-keys')!;
    const annValues = [...annotationRecords(ann.file)].filter((r) => r.ok).map((r) => (r as { value: object }).value);
    expect(JSON.stringify(annValues)).not.toContain('isAdmin');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe('hostile criteria catalogs', () => {
  it.each(hostileCatalogs())('$name is refused at $paths', ({ catalog, paths }) => {
    const parsed = criteriaCatalogSchema.safeParse(catalog);
    expect(parsed.success).toBe(false);
    const errors = zodIssuesToImportErrors(0, parsed.error!);
    expect(errors.map((e) => e.path)).toEqual(paths);
  });

  it('explains why overall is refused', () => {
    const parsed = criteriaCatalogSchema.safeParse(hostileCatalogs()[0].catalog);
    expect(zodIssuesToImportErrors(0, parsed.error!)[0].message).toMatch(/'overall' is reserved/);
  });
});

describe('CSV formula cells', () => {
  it.each(['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])('neutralises %j', (cell) => {
    const line = csvLine([cell, 'plain']);
    // The first cell starts with a quote mark, inside the CSV quoting.
    expect(line.startsWith(`"'`)).toBe(true);
    expect(line.endsWith(',"plain"\r\n')).toBe(true);
  });

  it('leaves numbers and ordinary text alone', () => {
    expect(csvLine([-1, 'a=b', 'x'])).toBe('-1,"a=b","x"\r\n');
  });
});
