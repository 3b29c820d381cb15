import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { computeReport } from '../analytics/report';
import { findStudy as getStudyRow } from '@/db/queries/studies';
import { rubricGroundTruth } from '../ground-truth/ground-truth';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { codeOf } from '@/test/errors';
import { goldCount } from '@/lib/assign/gold';
import { wilsonInterval } from '@/lib/stats/intervals';
import { DISCARD_REASONS } from '@/lib/validation/labels';
import { DomainError } from '../errors';
import type { Actor } from '../actor';
import { ImportRejected, importItems } from '../imports/imports';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';
import { getFlowAssignment, getQueue, submitFlowReview } from './flow-review';
import { getItemGold, goldAccuracy, listGoldItems, setGoldSettings, setItemGold } from './gold';

const { dir } = useTestDatabase();
const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
const kmp = fs.readFileSync(KMP, 'utf8').trim().split('\n');
/** 24 flows: the six seed flows, four times over under other ids. */
const flows = Array.from({ length: 24 }, (_, i) =>
  JSON.stringify({ ...JSON.parse(kmp[i % kmp.length]), id: `flow-${String(i + 1).padStart(2, '0')}` }),
);

const sql = getDbSql;
function getDbSql<T = unknown>(query: string, ...args: unknown[]): T[] {
  return getDb()
    .$client.prepare(query)
    .all(...args) as T[];
}
const itemId = (studyId: number, externalId: string) =>
  getDb().$client.prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, externalId) as number;
const fieldErrorsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e.fieldErrors ?? {};
    throw e;
  }
  throw new Error('expected a refusal');
};

const fieldErrorsOfImport = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof ImportRejected) return e.errors;
    throw e;
  }
  throw new Error('expected the file to be refused');
};

let lead: Actor, r1: Actor, r2: Actor, r3: Actor;
const REASON = DISCARD_REASONS[0];
const GOLD = ['flow-03', 'flow-09', 'flow-15', 'flow-21'];

/** A flow study of the 24 flows, two reviewers per item out of three, four gold items at `rate` %. */
function goldStudy(name: string, rate: number, seed = 17) {
  const studyId = createStudy(lead, { kind: 'flow_review', name, reviewersPerItem: 2, seed }).id;
  importItems(lead, studyId, writeTemp(dir, `${name}.jsonl`, flows.join('\n')), 'concord');
  setStudyMembers(lead, studyId, { usernames: ['r1', 'r2', 'r3'] });
  for (const ext of GOLD) setItemGold(lead, studyId, { itemId: itemId(studyId, ext), labels: { decision: 'verify' } });
  setGoldSettings(lead, studyId, { ratePct: rate, alertBelowPct: '' });
  openStudy(lead, studyId);
  return studyId;
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  [r1, r2, r3] = await Promise.all(['r1', 'r2', 'r3'].map((u) => makeUser(u)));
});

describe('marking gold items', () => {
  let studyId: number;
  beforeAll(() => {
    studyId = createStudy(lead, { kind: 'flow_review', name: 'marks', reviewersPerItem: 1, seed: 3 }).id;
    importItems(lead, studyId, writeTemp(dir, 'marks.jsonl', flows.slice(0, 4).join('\n')), 'concord');
  });

  it('checks the labels against the kind’s vocabulary, naming the field', () => {
    const id = itemId(studyId, 'flow-01');
    expect(fieldErrorsOf(() => setItemGold(lead, studyId, { itemId: id, labels: { decision: 'maybe' } }))).toEqual({
      'labels.decision': '"maybe" is not a label of decision (verify, truncate, discard).',
    });
    expect(Object.keys(fieldErrorsOf(() => setItemGold(lead, studyId, { itemId: id, labels: { overall: 'win' } })))).toEqual([
      'labels.overall',
    ]);
    expect(getItemGold(lead, studyId, id).labels).toEqual({});
  });

  it('keeps every mark and unmark (append-only, audited), and only leads may set them', () => {
    const id = itemId(studyId, 'flow-02');
    expect(setItemGold(lead, studyId, { itemId: id, labels: { decision: 'discard' } }).labels).toEqual({ decision: 'discard' });
    // The same again writes nothing.
    setItemGold(lead, studyId, { itemId: id, labels: { decision: 'discard' } });
    expect(setItemGold(lead, studyId, { itemId: id, labels: { decision: null } }).labels).toEqual({});
    expect(sql<{ label: string | null }>('SELECT label FROM gold_labels WHERE item_id = ? ORDER BY id', id)).toEqual([
      { label: 'discard' },
      { label: null },
    ]);
    expect(listGoldItems(lead, studyId)).toEqual([]);
    expect(() => getDb().$client.prepare('UPDATE gold_labels SET label = ? WHERE item_id = ?').run('verify', id)).toThrow(/append-only/);
    expect(sql('SELECT action FROM audit_log WHERE study_id = ? AND action = ?', studyId, 'gold_set')).toHaveLength(2);
    expect(codeOf(() => setItemGold(r1, studyId, { itemId: id, labels: { decision: 'verify' } }))).toBe('forbidden');
    setItemGold(lead, studyId, { itemId: id, labels: { decision: 'truncate' } });
    expect(listGoldItems(lead, studyId)).toEqual([{ itemId: id, externalId: 'flow-02', labels: { decision: 'truncate' } }]);
    expect(codeOf(() => listGoldItems(r1, studyId))).toBe('forbidden');
  });

  it('refuses an item of another study, and a rate above 50 %', () => {
    const other = createStudy(lead, { kind: 'flow_review', name: 'other', reviewersPerItem: 1, seed: 4 }).id;
    expect(codeOf(() => setItemGold(lead, other, { itemId: itemId(studyId, 'flow-01'), labels: { decision: 'verify' } }))).toBe(
      'not_found',
    );
    expect(fieldErrorsOf(() => setGoldSettings(lead, studyId, { ratePct: 60, alertBelowPct: '' }))).toEqual({
      ratePct: 'Gold rate must be at most 50 %.',
    });
  });
});

describe('gold labels on imported items', () => {
  const withGold = (i: number, gold: unknown) => JSON.stringify({ ...JSON.parse(flows[i]), gold });

  it('refuses a file whose gold labels are not the kind’s, naming line and field, and writes nothing', () => {
    const studyId = createStudy(lead, { kind: 'flow_review', name: 'import-bad', reviewersPerItem: 1, seed: 5 }).id;
    const file = writeTemp(
      dir,
      'gold-bad.jsonl',
      [
        withGold(0, { decision: 'verify' }),
        flows[1],
        withGold(2, { decision: 'fine' }),
        withGold(3, { overall: 'win' }),
        withGold(4, 'verify'),
      ].join('\n'),
    );
    let caught: unknown;
    try {
      importItems(lead, studyId, file, 'concord');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ImportRejected);
    expect((caught as ImportRejected).errors).toEqual([
      { line: 3, path: 'gold.decision', message: '"fine" is not a label of decision (verify, truncate, discard).' },
      { line: 4, path: 'gold.overall', message: '"overall" is not one of this study\'s units (decision).' },
      { line: 5, path: 'gold', message: 'gold must be an object of labels by unit, e.g. {"overall": "win"}' },
    ]);
    expect(sql('SELECT 1 FROM items WHERE study_id = ?', studyId)).toEqual([]);
    expect(sql('SELECT 1 FROM gold_labels WHERE study_id = ?', studyId)).toEqual([]);
  });

  it('marks the items of a clean file gold, as imported', () => {
    const studyId = createStudy(lead, { kind: 'flow_review', name: 'import-good', reviewersPerItem: 1, seed: 5 }).id;
    const file = writeTemp(
      dir,
      'gold-good.jsonl',
      [withGold(0, { decision: 'discard' }), flows[1], withGold(2, { decision: 'verify' })].join('\n'),
    );
    expect(importItems(lead, studyId, file, 'concord')).toMatchObject({ inserted: 3 });
    expect(getItemGold(lead, studyId, itemId(studyId, 'flow-01')).labels).toEqual({ decision: 'discard' });
    expect(getItemGold(lead, studyId, itemId(studyId, 'flow-02')).labels).toEqual({});
    expect(sql('SELECT source, created_by AS createdBy FROM gold_labels WHERE study_id = ?', studyId)).toEqual([
      { source: 'import', createdBy: lead.id },
      { source: 'import', createdBy: lead.id },
    ]);
  });
});

describe('mixing gold into every queue', () => {
  let studyId: number;
  beforeAll(() => {
    studyId = goldStudy('mixed', 20);
  });

  it('gives each reviewer the rate’s share of gold among their items, numbered with the rest', () => {
    const gold = new Set(GOLD.map((e) => itemId(studyId, e)));
    for (const who of [r1, r2, r3]) {
      const rows = sql<{ itemId: number; queuePosition: number }>(
        'SELECT item_id AS itemId, queue_position AS queuePosition FROM assignments WHERE study_id = ? AND user_id = ? ORDER BY queue_position',
        studyId,
        who.id,
      );
      const regular = rows.filter((r) => !gold.has(r.itemId)).length;
      // The 20 regular items, two reviewers each, shared by three: 13 or 14 each.
      expect(regular).toBeGreaterThanOrEqual(13);
      expect(rows.length - regular).toBe(goldCount(regular, 20, 4));
      expect(rows.length - regular).toBeGreaterThan(2);
      expect(rows.map((r) => r.queuePosition)).toEqual(rows.map((_, i) => i + 1));
      expect(getQueue(who, studyId).total).toBe(rows.length);
    }
    // Gold items are not planned as regular work: every regular item has its two reviewers, gold ones go to all three.
    const perItem = sql<{ itemId: number; n: number }>(
      'SELECT item_id AS itemId, count(*) AS n FROM assignments WHERE study_id = ? GROUP BY item_id',
      studyId,
    );
    for (const r of perItem.filter((r) => !gold.has(r.itemId))) expect(r.n).toBe(2);
    const goldHolders = perItem.filter((r) => gold.has(r.itemId)).map((r) => r.n);
    expect(goldHolders.length).toBe(4);
    // A gold item may go to more reviewers than an item plans (here up to all three): slots past the plan are allowed.
    expect(Math.max(...goldHolders)).toBe(3);
  });

  it('draws the same queues from the same seed', () => {
    const again = goldStudy('mixed-again', 20);
    const queues = (s: number) =>
      sql(
        'SELECT a.user_id, a.queue_position, i.external_id FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.study_id = ? ORDER BY 1, 2',
        s,
      );
    expect(queues(again)).toEqual(queues(studyId));
  });

  it('leaves queues without gold at rate 0', () => {
    const none = goldStudy('no-gold', 0);
    expect(sql('SELECT 1 FROM assignments a JOIN gold_current g ON g.item_id = a.item_id WHERE a.study_id = ?', none)).toEqual([]);
  });

  it('keeps the rate fixed once the study is open, the threshold not', () => {
    expect(codeOf(() => setGoldSettings(lead, studyId, { ratePct: 30, alertBelowPct: '' }))).toBe('conflict');
    expect(setGoldSettings(lead, studyId, { ratePct: 20, alertBelowPct: 60 })).toEqual({ ratePct: 20, alertBelowPct: 60 });
  });

  it('scores each reviewer on gold with a Wilson interval and flags those under the threshold', () => {
    const answer: Record<number, (i: number) => 'verify' | 'discard'> = {
      [r1.id]: () => 'verify',
      [r2.id]: () => 'discard',
      [r3.id]: (i) => (i % 2 ? 'verify' : 'discard'),
    };
    let n = 0;
    for (const who of [r1, r2, r3]) {
      let i = 0;
      for (let q = getQueue(who, studyId); q.currentId !== null; q = getQueue(who, studyId)) {
        getFlowAssignment(who, q.currentId);
        const decision = answer[who.id](i++);
        submitFlowReview(who, {
          assignmentId: q.currentId,
          requestId: `gold-${String(++n).padStart(4, '0')}`,
          activeMs: 0,
          decision: decision === 'verify' ? { decision } : { decision, reasons: [REASON] },
        });
      }
    }
    const report = goldAccuracy(lead, studyId);
    expect(report.goldItems).toBe(4);
    const by = new Map(report.reviewers.map((r) => [r.username, r]));
    const goldOf = (who: Actor) =>
      sql<{ decision: string }>(
        `SELECT an.decision FROM assignments a JOIN annotations an ON an.assignment_id = a.id
          WHERE a.study_id = ? AND a.user_id = ? AND a.item_id IN (SELECT item_id FROM gold_current)`,
        studyId,
        who.id,
      );
    for (const who of [r1, r2, r3]) {
      const answers = goldOf(who);
      const correct = answers.filter((a) => a.decision === 'verify').length;
      const row = by.get(who.username)!;
      expect(row).toMatchObject({ compared: answers.length, items: answers.length, correct });
      const ci = wilsonInterval(correct, answers.length);
      expect(row.intervals.accuracy).toEqual({ method: 'wilson', lower: ci.lower, upper: ci.upper });
      expect(row.below).toBe(correct / answers.length < 0.6);
    }
    expect(by.get('r1')).toMatchObject({ accuracy: 1, below: false });
    expect(by.get('r2')).toMatchObject({ accuracy: 0, below: true });
    expect(codeOf(() => goldAccuracy(r1, studyId))).toBe('forbidden');
  });

  it('reaches the command line through the report registry: concord report gold --json', () => {
    const r = spawnSync(process.execPath, ['lib/cli/bin.mjs', 'report', 'gold', '--study', String(studyId), '--json'], {
      env: process.env,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // As every report of the registry: the gold report with what exclusions leave out (nothing here).
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(computeReport(lead, studyId, 'gold', {}))));
    const text = spawnSync(process.execPath, ['lib/cli/bin.mjs', 'report', 'gold', '--study', String(studyId)], {
      env: process.env,
      encoding: 'utf8',
    });
    expect(text.stdout).toContain('Accuracy on gold items');
    expect(text.stdout).toMatch(/r2\b.*\byes\b/);
  }, 60_000);
});

describe('a rubric study', () => {
  const RUBRIC = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'rubric.jsonl');

  it('gets gold replies between dialogues, never inside one, with the answers checked against its dimensions', () => {
    const lines = fs
      .readFileSync(RUBRIC, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; group: string });
    const studyId = createStudy(lead, { kind: 'rubric', name: 'rubric gold', dimensions: 'mrbench-v3', reviewersPerItem: 1, seed: 21 }).id;
    const bad = lines.map((l, i) => JSON.stringify(i === 0 ? { ...l, gold: { mistake_identification: 'Maybe' } } : l));
    expect(fieldErrorsOfImport(() => importItems(lead, studyId, writeTemp(dir, 'rubric-bad.jsonl', bad.join('\n')), 'concord'))).toEqual([
      {
        line: 1,
        path: 'gold.mistake_identification',
        message: '"Maybe" is not a label of mistake_identification (No, To some extent, Yes).',
      },
    ]);
    // The third dialogue's replies are gold.
    const good = lines.map((l) => JSON.stringify(l.group === 'rubric-ex-003' ? { ...l, gold: { mistake_identification: 'Yes' } } : l));
    importItems(lead, studyId, writeTemp(dir, 'rubric-good.jsonl', good.join('\n')), 'concord');
    setStudyMembers(lead, studyId, { usernames: ['r1', 'r2'] });
    setGoldSettings(lead, studyId, { ratePct: 50, alertBelowPct: '' });
    openStudy(lead, studyId);
    for (const who of [r1, r2]) {
      const queue = sql<{ group: string; position: number }>(
        `SELECT i.group_key AS "group", a.queue_position AS position FROM assignments a JOIN items i ON i.id = a.item_id
          WHERE a.study_id = ? AND a.user_id = ? ORDER BY a.queue_position`,
        studyId,
        who.id,
      );
      // One regular dialogue (three replies) each and, at 50 %, three gold replies.
      expect(queue.map((q) => q.position)).toEqual([1, 2, 3, 4, 5, 6]);
      const regular = queue.map((q, k) => [q.group, k] as const).filter(([g]) => g !== 'rubric-ex-003');
      expect(regular).toHaveLength(3);
      expect(new Set(regular.map(([g]) => g)).size).toBe(1);
      // The dialogue's replies are one after another.
      expect(regular[2][1] - regular[0][1]).toBe(2);
    }
    // Gold replies are neither ground truth nor waiting for it: only the regular replies are reported as incomplete.
    const incomplete: string[] = [];
    const study = getStudyRow(getDb(), studyId)!;
    expect([...rubricGroundTruth(getDb(), study, (id) => incomplete.push(id))]).toEqual([]);
    const goldIds = lines.filter((l) => l.group === 'rubric-ex-003').map((l) => l.id);
    expect(incomplete.length).toBe(lines.length - goldIds.length);
    expect(incomplete.filter((id) => goldIds.includes(id))).toEqual([]);
  });
});
