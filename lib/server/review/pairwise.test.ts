import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { publicDataDir } from '@/lib/io/public-data';
import { parseCsv } from '@/test/csv';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { getAdjudicationItem, getAdjudicationQueue, submitAdjudication } from './adjudication';
import { exportGroundTruth } from '../ground-truth/ground-truth';
import { groundTruthSummary } from '@/test/ground-truth';
import { ImportRejected, importItems } from '../imports/imports';
import { getJudgeAssignment, submitJudgment } from './judging';
import { importAnnotations } from '../imports/prior-annotations';
import { getQueue, undoLastSubmission } from './flow-review';
import { createStudy, openStudy, setGroundTruthRule, setStudyCriteria, setStudyMembers } from '../studies/studies';

const { dir } = useTestDatabase();
const PAIRS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl');
const count = (sql: string, ...args: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...args) as number;
let n = 0;
const rid = () => `req-${String(++n).padStart(6, '0')}`;

let lead: Actor, a1: Actor, a2: Actor, a3: Actor, a4: Actor, adj: Actor, stranger: Actor;
let studyId: number;

/** Submits the same on-screen choice for every criterion of the reviewer's current item, except those in `override`. */
function judgeCurrent(who: Actor, choice: 'r1' | 'tie' | 'r2', override: Record<string, 'r1' | 'tie' | 'r2'> = {}) {
  const q = getQueue(who, studyId);
  const a = getJudgeAssignment(who, q.currentId!);
  const choices = Object.fromEntries(a.criteria.map((c) => [c.id, override[c.id] ?? choice]));
  submitJudgment(who, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 1000, choices });
  return a;
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  [a1, a2, a3, a4, adj, stranger] = await Promise.all(['a1', 'a2', 'a3', 'a4', 'adj', 'stranger'].map((u) => makeUser(u)));
  studyId = createStudy(lead, { kind: 'pairwise', name: 'Pairs', seed: 21 }).id;
  importItems(lead, studyId, PAIRS, 'concord');
});

describe('setting up a pairwise study', () => {
  it('starts with the 22-criterion catalog and two reviewers per item', () => {
    const study = setStudyMembers(lead, studyId, { usernames: ['a1', 'a2'], adjudicator: 'adj' });
    expect(study.criteria).toHaveLength(22);
    expect(study.reviewersPerItem).toBe(2);
    expect(study.adjudicator?.username).toBe('adj');
  });

  it('refuses an adjudicator who is also a reviewer, and uneven fixed sets', () => {
    expect(codeOf(() => setStudyMembers(lead, studyId, { usernames: ['a1', 'a2'], adjudicator: 'a1' }))).toBe('invalid');
    expect(codeOf(() => setStudyMembers(lead, studyId, { usernames: ['a1', 'a2', 'a3'], mode: 'fixed_sets' }))).toBe('invalid');
  });

  it('splits items into fixed sets, one per pair, each item judged by exactly its pair', () => {
    setStudyMembers(lead, studyId, { usernames: ['a1', 'a2', 'a3', 'a4'], mode: 'fixed_sets', adjudicator: 'adj' });
    openStudy(lead, studyId);
    const rows = getDb()
      .$client.prepare('SELECT item_id AS item, group_concat(user_id) AS users FROM assignments GROUP BY item_id')
      .all() as {
      item: number;
      users: string;
    }[];
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      const users = r.users.split(',').map(Number).sort();
      expect([[a1.id, a2.id].sort(), [a3.id, a4.id].sort()]).toContainEqual(users);
    }
  });
});

describe('judging blind', () => {
  it('never shows a source or an external id, and shows the replies in the stored order', () => {
    const q = getQueue(a1, studyId);
    const a = getJudgeAssignment(a1, q.currentId!);
    const json = JSON.stringify(a);
    expect(json).not.toMatch(/model-x|model-y|reference|kmp-style-pw/);
    const swapped = count('SELECT swapped FROM assignments WHERE id = ?', a.assignmentId) === 1;
    const payload = JSON.parse(getDb().$client.prepare('SELECT payload FROM items WHERE id = ?').pluck().get(a.itemId) as string);
    expect(a.responses).toEqual(swapped ? [payload.b.text, payload.a.text] : [payload.a.text, payload.b.text]);
    // 4 general + 3 for the item's principle + overall.
    expect(a.criteria).toHaveLength(8);
    expect(a.criteria.at(-1)!.id).toBe('overall');
  });

  it('needs every criterion, stores labels from a’s side with the on-screen choice, and writes once', () => {
    const q = getQueue(a1, studyId);
    const a = getJudgeAssignment(a1, q.currentId!);
    const partial = Object.fromEntries(a.criteria.slice(1).map((c) => [c.id, 'r1' as const]));
    expect(codeOf(() => submitJudgment(a1, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 0, choices: partial }))).toBe(
      'invalid',
    );
    const choices = Object.fromEntries(a.criteria.map((c) => [c.id, 'r1' as const]));
    const input = { assignmentId: a.assignmentId, requestId: rid(), activeMs: 0, choices };
    expect(submitJudgment(a1, input).duplicate).toBe(false);
    expect(submitJudgment(a1, input).duplicate).toBe(true);
    expect(codeOf(() => submitJudgment(a1, { ...input, requestId: rid() }))).toBe('conflict');
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', a.assignmentId)).toBe(1);
    const swapped = count('SELECT swapped FROM assignments WHERE id = ?', a.assignmentId) === 1;
    const stored = getDb().$client.prepare('SELECT DISTINCT label, screen_choice AS s FROM labels').all();
    expect(stored).toEqual([{ label: swapped ? 'lose' : 'win', s: 'r1' }]);
    // Undo brings the choices back as they were seen.
    undoLastSubmission(a1, { studyId });
    expect(getJudgeAssignment(a1, a.assignmentId).draft?.choices).toEqual(choices);
  });

  it('keeps other reviewers out of an assignment and annotators out of adjudication', () => {
    const mine = getQueue(a1, studyId).currentId!;
    expect(codeOf(() => getJudgeAssignment(a3, mine))).toBe('not_found');
    expect(codeOf(() => getAdjudicationQueue(a1, studyId))).toBe('forbidden');
    expect(codeOf(() => getAdjudicationQueue(stranger, studyId))).toBe('not_found');
  });
});

describe('adjudication and ground truth', () => {
  it('queues exactly the items where reviewers disagree and settles them', () => {
    // Every pair judges all its items; the pair a1/a2 disagrees on overall for its first item.
    const first = judgeCurrent(a1, 'r1');
    const second = getJudgeAssignment(a2, getQueue(a2, studyId).currentId!);
    expect(second.itemId).toBe(first.itemId);
    const a2Swapped = count('SELECT swapped FROM assignments WHERE id = ?', second.assignmentId) === 1;
    const a1Swapped = count('SELECT swapped FROM assignments WHERE user_id = ? AND item_id = ?', a1.id, first.itemId) === 1;
    // a2 presses whatever makes the same canonical label as a1 on all but overall, where they pick tie.
    const same = a1Swapped === a2Swapped ? 'r1' : 'r2';
    judgeCurrent(a2, same, { overall: 'tie' });
    for (const who of [a1, a2, a3, a4]) while (getQueue(who, studyId).currentId) judgeCurrent(who, 'tie');

    const queue = getAdjudicationQueue(adj, studyId);
    expect(queue.total).toBe(1);
    expect(queue.currentItemId).toBe(first.itemId);
    const item = getAdjudicationItem(adj, studyId, first.itemId);
    expect(item.criteria[0]).toMatchObject({ id: 'overall', agreed: false });
    expect(item.criteria.slice(1).every((c) => c.agreed)).toBe(true);
    expect(JSON.stringify(item)).not.toMatch(/model-x|model-y|reference|kmp-style-pw|a1|a2/);

    // Overruling both reviewers needs a reason.
    const reviewers = item.criteria[0].reviewers;
    const neither = (['r1', 'tie', 'r2'] as const).find((c) => !reviewers.includes(c))!;
    const base = { studyId, itemId: first.itemId, requestId: rid(), choices: { overall: neither } };
    expect(codeOf(() => submitAdjudication(adj, base))).toBe('invalid');
    expect(codeOf(() => submitAdjudication(adj, { ...base, choices: { ...base.choices, coherence: 'r1' } }))).toBe('invalid');
    const settled = { ...base, rationales: { overall: 'Both missed the arithmetic slip.' } };
    submitAdjudication(adj, settled);
    expect(submitAdjudication(adj, settled).duplicate).toBe(true);
    // The same request id with another rationale is not a retry: refused, and the first ruling stands.
    expect(codeOf(() => submitAdjudication(adj, { ...base, rationales: { overall: 'again' } }))).toBe('conflict');
    expect(getDb().$client.prepare('SELECT rationale FROM adjudications').pluck().get()).toBe('Both missed the arithmetic slip.');
    expect(getAdjudicationQueue(adj, studyId)).toMatchObject({ total: 1, resolved: 1, currentItemId: null });
    expect(count('SELECT count(*) FROM adjudications')).toBe(1);
  });

  it('freezes adjudicated reviews: undo cannot reach them', () => {
    const row = getDb()
      .$client.prepare(
        'SELECT a.id, a.user_id AS userId FROM assignments a WHERE a.item_id = (SELECT item_id FROM adjudications LIMIT 1) ORDER BY slot LIMIT 1',
      )
      .get() as { id: number; userId: number };
    // Make the adjudicated review that reviewer's most recent submission, the one `u` would take back.
    getDb()
      .$client.prepare('UPDATE assignments SET submitted_at = ? WHERE id = ?')
      .run(Date.now() + 60_000, row.id);
    const who = [a1, a2].find((u) => u.id === row.userId)!;
    expect(codeOf(() => undoLastSubmission(who, { studyId }))).toBe('conflict');
    expect(count("SELECT count(*) FROM assignments WHERE id = ? AND state = 'submitted'", row.id)).toBe(1);
  });

  it('exports ground truth with provenance and both reviewers’ labels', () => {
    // Put back anything the previous test undid.
    for (const who of [a1, a2]) while (getQueue(who, studyId).currentId) judgeCurrent(who, 'tie');
    const summary = groundTruthSummary(lead, studyId);
    expect(summary).toMatchObject({ items: 3, complete: 3, incomplete: 0, adjudicated: 1 });
    const rows = parseCsv([...exportGroundTruth(lead, studyId, 'csv').lines].join(''));
    expect(rows[0]).toEqual(['item', 'criterion', 'label', 'provenance', 'reviewer1_label', 'reviewer2_label', 'adjudicator', 'rationale']);
    const adjudicated = rows.filter((r) => r[3] === 'adjudicated');
    expect(adjudicated).toHaveLength(1);
    expect(adjudicated[0].slice(1).join(',')).toMatch(/^overall,(win|tie|lose),adjudicated,\w+,\w+,adj,Both missed the arithmetic slip\.$/);
    expect(rows.length - 1).toBe(summary.labels);
    expect(codeOf(() => exportGroundTruth(a1, studyId, 'csv'))).toBe('forbidden');
  });
});

describe('prior annotations', () => {
  let priorStudy: number;
  beforeAll(() => {
    priorStudy = createStudy(lead, { kind: 'pairwise', name: 'Prior', seed: 2 }).id;
    setStudyCriteria(lead, priorStudy, []);
    importItems(lead, priorStudy, PAIRS, 'concord');
  });

  it('refuses unknown items and criteria, naming each line (a third rater beyond the plan is no problem)', () => {
    const lines = [
      { item: 'kmp-style-pw-001', annotator: 'ext1', labels: { overall: 'win' } },
      { item: 'nope', annotator: 'ext1', labels: { overall: 'win' } },
      { item: 'kmp-style-pw-001', annotator: 'ext2', labels: { coherence: 'win' } },
      { item: 'kmp-style-pw-001', annotator: 'ext3', labels: { overall: 'tie' } },
    ];
    const file = writeTemp(dir, 'prior-bad.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'));
    try {
      importAnnotations(lead, priorStudy, file);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ImportRejected);
      // Line 4 brings a third rater to a study planned for two: accepted since decision 0028.
      expect((e as ImportRejected).errors.map((x) => [x.line, x.path])).toEqual([
        [2, 'item'],
        [3, 'labels.coherence'],
      ]);
    }
    expect(count('SELECT count(*) FROM assignments WHERE study_id = ?', priorStudy)).toBe(0);
  });

  it('imports labels as submitted reviews by accounts that cannot sign in; a re-import is a no-op', () => {
    const lines = ['001', '002', '003'].flatMap((k, i) => [
      { item: `kmp-style-pw-${k}`, annotator: 'ext1', labels: { overall: 'win' } },
      { item: `kmp-style-pw-${k}`, annotator: 'ext2', labels: { overall: i === 0 ? 'lose' : 'win' } },
    ]);
    const file = writeTemp(dir, 'prior.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(importAnnotations(lead, priorStudy, file)).toEqual({ records: 6, inserted: 6, unchanged: 0 });
    expect(importAnnotations(lead, priorStudy, file)).toEqual({ records: 6, inserted: 0, unchanged: 6 });
    expect(count("SELECT count(*) FROM users WHERE username IN ('ext1', 'ext2') AND password_hash IS NULL AND active = 0")).toBe(2);
    openStudy(lead, priorStudy);
    expect(count('SELECT count(*) FROM assignments WHERE study_id = ?', priorStudy)).toBe(6);
    expect(groundTruthSummary(lead, priorStudy)).toMatchObject({ complete: 2, incomplete: 1 });
    expect(getAdjudicationQueue(lead, priorStudy).total).toBe(1);
  });

  it('brings PandaLM’s items with its three annotators’ labels', () => {
    const id = createStudy(lead, { kind: 'pairwise', name: 'PandaLM', reviewersPerItem: 3, seed: 9, groundTruthRule: 'majority' }).id;
    setStudyCriteria(lead, id, []);
    const report = importItems(lead, id, path.join(publicDataDir(), 'pandalm', 'testset-v1.json'), 'pandalm');
    expect(report).toMatchObject({ records: 999, inserted: 999, annotations: { records: 2997, inserted: 2997 } });
    expect(count('SELECT count(DISTINCT source_a) FROM items WHERE study_id = ?', id)).toBe(1);
    expect(groundTruthSummary(lead, id)).toMatchObject({ items: 999, complete: 999, rule: 'majority' });
    // Every PandaLM item has a majority, so nothing waits for the adjudicator under the majority rule.
    expect(getAdjudicationQueue(lead, id).total).toBe(0);
    // Under the agreed-or-adjudicated rule every item where the three annotators split waits for adjudication.
    setGroundTruthRule(lead, id, 'adjudicated');
    const summary = groundTruthSummary(lead, id);
    expect(summary.rule).toBe('adjudicated');
    expect(summary.incomplete).toBe(getAdjudicationQueue(lead, id).total);
    expect(summary.incomplete).toBeGreaterThan(0);
    expect(codeOf(() => setGroundTruthRule(lead, id, 'vote'))).toBe('invalid');
  });
});
