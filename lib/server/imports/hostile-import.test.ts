import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import {
  FLOW_BASE_IDS,
  PAIRWISE_BASE_IDS,
  flow,
  flowBase,
  generateHostileCorpus,
  hostileCatalogs,
  pair,
  pairwiseBase,
  writeBigFlowFile,
  type HostileCase,
} from '@/test/hostile-corpus';
import type { Actor } from '../actor';
import { getAdjudicationQueue, submitAdjudication } from '../review/adjudication';
import { DomainError } from '../errors';
import { exportFlows } from '../studies/exports';
import { exportGroundTruth } from '../ground-truth/ground-truth';
import { ImportRejected, importItems } from './imports';
import { getJudgeAssignment, submitJudgment } from '../review/judging';
import { importJudge } from './judge-import';
import { importAnnotations } from './prior-annotations';
import { getFlowAssignment, getQueue, submitFlowReview } from '../review/flow-review';
import { createStudy, openStudy, setStudyCriteria, setStudyMembers } from '../studies/studies';

/*
 * The hostile corpus (test/hostile-corpus.ts) through the real importers on a real SQLite file: each file
 * is refused whole with every problem named by line and field, nothing is written to any table, and the
 * 200 MB file is streamed in bounded memory. Then CSV exports with formula-like ids, texts, notes and rationales.
 */

const { dir } = useTestDatabase();
const corpusDir = path.join(dir, 'corpus');
let corpus: HostileCase[];
let lead: Actor;
let flowStudy: number;
let pairStudy: number;
let n = 0;
const rid = () => `hostile-${String(++n).padStart(6, '0')}`;

/** Row counts of every table: "nothing written" means none of them moved. */
function tableCounts(): Record<string, number> {
  const db = getDb().$client;
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number]));
}

function runImport(c: HostileCase) {
  switch (c.target) {
    case 'flow':
      return importItems(lead, flowStudy, c.file, 'concord');
    case 'mathdial':
      return importItems(lead, flowStudy, c.file, 'mathdial');
    case 'pairwise':
      return importItems(lead, pairStudy, c.file, 'concord');
    case 'annotations':
      return importAnnotations(lead, pairStudy, c.file, 'concord');
    case 'judge':
      return importJudge(lead, pairStudy, c.file, 'concord', c.judgeName);
  }
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** Imports a case, asserts it is refused exactly as described and that no table changed. */
function expectRefused(c: HostileCase) {
  const before = tableCounts();
  const error = caught(() => runImport(c));
  expect(tableCounts(), `${c.name}: nothing written`).toEqual(before);
  if (c.noRecords) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid');
    expect((error as DomainError).message).toMatch(/no records/);
    return;
  }
  expect(error, `${c.name} must be refused`).toBeInstanceOf(ImportRejected);
  const rejected = error as ImportRejected;
  expect(
    rejected.errors.map((e) => `${e.line}:${e.path}`),
    c.name,
  ).toEqual(c.errors.map((e) => `${e.line}:${e.path}`));
  expect(rejected.errorCount).toBe(c.errors.length);
  c.errors.forEach((e, i) => {
    if (e.message) expect(rejected.errors[i].message, `${c.name} line ${e.line} ${e.path}`).toMatch(e.message);
  });
  expect(rejected.message).toMatch(/Nothing was imported/);
}

beforeAll(async () => {
  corpus = generateHostileCorpus(corpusDir);
  lead = await makeUser('lead', 'lead');
  flowStudy = createStudy(lead, { kind: 'flow_review', name: 'Hostile flows', seed: 5 }).id;
  pairStudy = createStudy(lead, { kind: 'pairwise', name: 'Hostile pairs', seed: 6 }).id;
  expect(importItems(lead, flowStudy, writeTemp(dir, 'flow-base.jsonl', flowBase()), 'concord').inserted).toBe(FLOW_BASE_IDS.length);
  expect(importItems(lead, pairStudy, writeTemp(dir, 'pair-base.jsonl', pairwiseBase()), 'concord').inserted).toBe(
    PAIRWISE_BASE_IDS.length,
  );
}, 60_000);

// Peak RSS (getrusage maxrss) only rises. Two 100 MB files first let it settle at what reading big files costs
// (mostly garbage-collector slack, which after 50 MB files still varied by 35–80 MB from run to run); a file twice
// as big must then barely raise it, where an importer that held the file, its lines or its records would need
// hundreds of MB more.
describe('the 200 MB file through the importer', () => {
  it('is refused at its one bad line near the end, streamed in bounded memory, nothing written', () => {
    const warm = path.join(dir, 'warm-up-100mb.jsonl');
    const w = writeBigFlowFile(warm, 100_000_000, 20_000, 99_900_000);
    for (let round = 0; round < 2; round++) {
      const warmError = caught(() => importItems(lead, flowStudy, warm, 'concord')) as ImportRejected;
      expect(warmError.errors.map((e) => e.line)).toEqual([w.badLine]);
    }
    fs.rmSync(warm);

    const c = corpus.find((x) => x.name === 'two-hundred-mb')!;
    expect(c.bytes).toBeGreaterThanOrEqual(200_000_000);
    const peakBefore = process.resourceUsage().maxRSS * 1024;
    const rssBefore = process.memoryUsage().rss;
    const started = Date.now();
    expectRefused(c);
    const grown = process.resourceUsage().maxRSS * 1024 - peakBefore;
    expect(grown, `peak RSS grew by ${Math.round(grown / 1e6)} MB for a ${Math.round(c.bytes / 1e6)} MB file`).toBeLessThan(c.bytes / 4);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(c.bytes / 4);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});

describe('every hostile file is refused whole, by line and field, and writes nothing', () => {
  it('the corpus has at least 40 files', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
  });

  it('each one', () => {
    for (const c of corpus) {
      if (c.name === 'two-hundred-mb') continue;
      expectRefused(c);
    }
  }, 60_000);

  it('leaves Object.prototype alone', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('accepts the parts of the hostile files that are fine once the bad lines are gone', () => {
    // Shows that the refusals above are about the bad lines: the same ids and texts import cleanly on their own.
    const ok = [
      flow('<script>window.__xss=1</script>'),
      flow('__proto__'),
      flow('constructor'),
      flow('five-mb', { tutor_persona: 'p'.repeat(5_000_000) }),
    ];
    const file = writeTemp(dir, 'good-parts.jsonl', '\ufeff' + ok.map((f) => JSON.stringify(f)).join('\r\n'));
    expect(importItems(lead, flowStudy, file, 'concord')).toEqual({ records: 4, inserted: 4, unchanged: 0 });
    const stored = getDb().$client.prepare('SELECT external_id FROM items WHERE study_id = ? ORDER BY position').pluck().all(flowStudy);
    expect(stored).toEqual([...FLOW_BASE_IDS, '<script>window.__xss=1</script>', '__proto__', 'constructor', 'five-mb']);
  });
});

describe('hostile criteria catalogs', () => {
  it.each(hostileCatalogs())('$name is refused, naming the field', ({ catalog, paths }) => {
    const before = tableCounts();
    const studyCriteria = getDb().$client.prepare('SELECT criteria FROM studies WHERE id = ?').pluck().get(pairStudy);
    const error = caught(() => setStudyCriteria(lead, pairStudy, catalog)) as DomainError;
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('invalid');
    // parseInput keys field errors by the dotted path: [1].id → "1.id"; the whole catalog → "criteria".
    const keys = paths.map((p) => (p === '' ? 'criteria' : p.replace(/^\[(\d+)\]\./, '$1.')));
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(keys);
    expect(tableCounts()).toEqual(before);
    expect(getDb().$client.prepare('SELECT criteria FROM studies WHERE id = ?').pluck().get(pairStudy)).toBe(studyCriteria);
  });
});

/* ----- CSV exports neutralise formula cells ----- */

/** A small RFC 4180 parser: enough to read back what csvLine writes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

const FORMULA = /^[=+\-@\t\r]/;
const DANGEROUS_IDS = ['=HYPERLINK("http://evil.example","x")', '+1+cmd', '-2+3', '@SUM(A1:A9)'];
const DANGEROUS_TEXTS = ['\t=1+1', '\r=1+1', '=cmd|" /C calc"!A0', '@x'];
const DANGEROUS_NOTES = ['=HYPERLINK("http://evil.example","click")', '+note', '-note', '@note'];

function expectNeutral(csv: string, mustContain: string[]) {
  const rows = parseCsv(csv);
  expect(rows.length).toBeGreaterThan(1);
  for (const [r, row] of rows.entries()) {
    for (const [c, cell] of row.entries()) expect(cell, `row ${r} cell ${c}: ${JSON.stringify(cell)}`).not.toMatch(FORMULA);
  }
  const cells = new Set(rows.flat());
  // The value is kept, behind the quote mark (and one after each line break that a formula follows), not dropped.
  const unquoted = (cell: string) => cell.replace(/^'|(?<=[\r\n;,])'/g, '');
  for (const value of mustContain)
    expect(
      [...cells].some((cell) => cell.startsWith("'") && unquoted(cell).startsWith(value)),
      JSON.stringify(value),
    ).toBe(true);
}

describe('CSV exports with hostile ids, texts and notes', () => {
  let reviewer: Actor;
  beforeAll(async () => {
    reviewer = await makeUser('csvrev');
    const study = createStudy(lead, { kind: 'flow_review', name: '=evil study', seed: 9 }).id;
    const items = DANGEROUS_IDS.map((id, i) => flow(id, { problem: { text: DANGEROUS_TEXTS[i] } }));
    importItems(lead, study, writeTemp(dir, 'csv-flows.jsonl', items.map((f) => JSON.stringify(f)).join('\n')), 'concord');
    setStudyMembers(lead, study, { usernames: ['csvrev'] });
    openStudy(lead, study);
    for (const note of DANGEROUS_NOTES) {
      const a = getFlowAssignment(reviewer, getQueue(reviewer, study).currentId!);
      submitFlowReview(reviewer, {
        assignmentId: a.assignmentId,
        requestId: rid(),
        activeMs: 1000,
        decision: { decision: 'verify', note },
      });
    }
    flowCsvStudy = study;
  });
  let flowCsvStudy: number;

  it('verified flows: ids, problem texts (tab and CR too) and notes are prefixed with a quote mark', () => {
    const csv = [...exportFlows(lead, flowCsvStudy, 'flows', 'csv').lines].join('');
    expectNeutral(csv, [...DANGEROUS_IDS, ...DANGEROUS_TEXTS, ...DANGEROUS_NOTES]);
  });

  it('decisions: ids and notes are prefixed', () => {
    const csv = [...exportFlows(lead, flowCsvStudy, 'decisions', 'csv').lines].join('');
    expectNeutral(csv, [...DANGEROUS_IDS, ...DANGEROUS_NOTES]);
  });

  it('the JSONL export keeps the values exactly (neutralising is for spreadsheets only)', () => {
    const flows = [...exportFlows(lead, flowCsvStudy, 'flows', 'jsonl').lines].map((l) => JSON.parse(l));
    expect(flows.map((f) => f.id).sort()).toEqual([...DANGEROUS_IDS].sort());
    expect(flows.map((f) => f.problem.text).sort()).toEqual([...DANGEROUS_TEXTS].sort());
  });

  it('ground truth: formula-like item ids and adjudication rationales are prefixed', async () => {
    const [r1, r2, adj] = await Promise.all(['gt1', 'gt2', 'gtadj'].map((u) => makeUser(u)));
    const study = createStudy(lead, { kind: 'pairwise', name: '@gt', seed: 10 }).id;
    setStudyCriteria(lead, study, []); // overall only
    importItems(lead, study, writeTemp(dir, 'csv-pairs.jsonl', DANGEROUS_IDS.map((id) => JSON.stringify(pair(id))).join('\n')), 'concord');
    setStudyMembers(lead, study, { usernames: ['gt1', 'gt2'], adjudicator: 'gtadj' });
    openStudy(lead, study);
    // gt1 always ties, gt2 always picks Response 1: every item disagrees on overall.
    for (const [who, choice] of [
      [r1, 'tie'],
      [r2, 'r1'],
    ] as const) {
      for (let i = 0; i < DANGEROUS_IDS.length; i++) {
        const a = getJudgeAssignment(who, getQueue(who, study).currentId!);
        submitJudgment(who, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 1000, choices: { overall: choice } });
      }
    }
    const queue = getAdjudicationQueue(adj, study);
    expect(queue.total).toBe(DANGEROUS_IDS.length);
    const rationales = ['=1+1', '+SUM(1)', '-3', '@cmd'];
    queue.items.forEach((item, i) => {
      submitAdjudication(adj, {
        studyId: study,
        itemId: item.itemId,
        requestId: rid(),
        choices: { overall: 'tie' },
        rationales: { overall: rationales[i] },
      });
    });
    const csv = [...exportGroundTruth(lead, study, 'csv').lines].join('');
    expect(parseCsv(csv)).toHaveLength(1 + DANGEROUS_IDS.length);
    expectNeutral(csv, [...DANGEROUS_IDS, ...rationales]);
  });
});
