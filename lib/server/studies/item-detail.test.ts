import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '@/test/errors';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { importJudge } from '../imports/judge-import';
import { importAnnotations } from '../imports/prior-annotations';
import { getAdjudicationItem, submitAdjudication } from '../review/adjudication';
import { getQueue, submitFlowReview, undoLastSubmission } from '../review/flow-review';
import { listFlowDecisions } from './flow-report';
import { itemDetail } from './item-detail';
import { listPairwiseItems } from './items';
import { createStudy, openStudy, setStudyMembers } from './studies';

/* One item as its leads see it, and the items list's "judge disagrees with ground truth" filter. */

const { dir } = useTestDatabase();
let lead: Actor, ann1: Actor, adj: Actor;
const lines = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const pair = (id: string) => ({
  id,
  problem: `What is 6 × 7? (${id})`,
  history: [{ role: 'student', text: 'Is it 48?' }],
  a: { source: 'model-x', text: `Try 6 × 7 as 6 × 5 + 6 × 2. (${id})` },
  b: { source: 'teacher', text: `What is 6 × 6 first? (${id})` },
});

let pairwiseId: number;
const itemId = (externalId: string) => listPairwiseItems(lead, pairwiseId, { q: externalId }).rows[0].itemId;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  ann1 = await makeUser('ann1');
  await makeUser('ann2');
  adj = await makeUser('adj');
  pairwiseId = createStudy(lead, { kind: 'pairwise', name: 'Detail', seed: 5, reviewersPerItem: 2 }).id;
  importItems(lead, pairwiseId, writeTemp(dir, 'items.jsonl', lines([pair('agree'), pair('split'), pair('judge-off')])), 'concord');
  importAnnotations(
    lead,
    pairwiseId,
    writeTemp(
      dir,
      'prior.jsonl',
      lines([
        { item: 'agree', annotator: 'p1', labels: { overall: 'win' } },
        { item: 'agree', annotator: 'p2', labels: { overall: 'win' } },
        { item: 'split', annotator: 'p1', labels: { overall: 'win' } },
        { item: 'split', annotator: 'p2', labels: { overall: 'lose' } },
        { item: 'judge-off', annotator: 'p1', labels: { overall: 'tie' } },
        { item: 'judge-off', annotator: 'p2', labels: { overall: 'tie' } },
      ]),
    ),
    'concord',
  );
  setStudyMembers(lead, pairwiseId, { usernames: ['ann1', 'ann2'], adjudicator: 'adj' });
  openStudy(lead, pairwiseId);
  importJudge(
    lead,
    pairwiseId,
    writeTemp(
      dir,
      'judge.jsonl',
      lines([
        { item: 'agree', judge: 'j1', labels: { overall: 'win' }, swapped: false, rationale: 'a decomposes the product' },
        { item: 'split', judge: 'j1', labels: { overall: 'lose' }, swapped: false, rationale: 'b asks a question' },
        { item: 'judge-off', judge: 'j1', labels: { overall: 'win' }, swapped: false, rationale: 'a is more direct' },
      ]),
    ),
    'concord',
  );
});

describe('the item page of a pairwise item', () => {
  it('shows content, sources, each reviewer side by side, the ruling with its rationale and the judge with its rationale', () => {
    const id = itemId('split');
    const item = getAdjudicationItem(adj, pairwiseId, id);
    const overall = item.criteria.find((c) => c.id === 'overall')!;
    // Settle for what the adjudicator's Reviewer 1 chose, with a rationale.
    submitAdjudication(adj, {
      studyId: pairwiseId,
      itemId: id,
      requestId: 'detail-ruling-0001',
      choices: { overall: overall.reviewers[0] },
      rationales: { overall: 'The first reading is right.' },
    });
    const d = itemDetail(lead, pairwiseId, id);
    if (d.kind !== 'pairwise') throw new Error('expected a pairwise item');
    expect(d.externalId).toBe('split');
    expect(d.replies).toEqual({
      a: { text: 'Try 6 × 7 as 6 × 5 + 6 × 2. (split)', source: 'model-x' },
      b: { text: 'What is 6 × 6 first? (split)', source: 'teacher' },
    });
    expect(d.history).toEqual([{ role: 'student', text: 'Is it 48?' }]);
    expect(d.reviewers.map((r) => [r.username, r.state, r.revisions.length])).toEqual([
      ['p1', 'submitted', 1],
      ['p2', 'submitted', 1],
    ]);
    const row = d.criteria.find((c) => c.id === 'overall')!;
    expect(row.labels).toEqual(['win', 'lose']);
    expect(row.rulings).toHaveLength(1);
    expect(row.rulings[0]).toMatchObject({ by: 'adj', rationale: 'The first reading is right.' });
    expect(row.groundTruth).toEqual({ label: row.rulings[0].label, provenance: 'adjudicated' });
    expect(row.verdicts).toEqual([{ run: 'j1', label: 'lose', rationale: 'b asks a question', order: 'a first' }]);
    expect(d.judgeRuns).toEqual(['j1']);
  });

  it('marks a criterion still waiting for the adjudicator, and links its neighbours', () => {
    const studyItems = listPairwiseItems(lead, pairwiseId, {}).rows.map((r) => r.itemId);
    const d = itemDetail(lead, pairwiseId, studyItems[0]);
    if (d.kind !== 'pairwise') throw new Error('expected a pairwise item');
    expect(d.previousId).toBeNull();
    expect(d.nextId).toBe(studyItems[1]);
    expect(d.criteria.find((c) => c.id === 'overall')).toMatchObject({
      labels: ['win', 'win'],
      groundTruth: { label: 'win', provenance: 'agreed' },
    });
  });

  it('is for leads only, and never for an item of another study', () => {
    const id = itemId('agree');
    expect(codeOf(() => itemDetail(ann1, pairwiseId, id))).toBe('forbidden');
    const other = createStudy(lead, { kind: 'pairwise', name: 'Other', seed: 1 }).id;
    expect(codeOf(() => itemDetail(lead, other, id))).toBe('not_found');
    expect(codeOf(() => itemDetail(lead, pairwiseId, 999_999))).toBe('not_found');
  });
});

describe('the items list filtered to where a judge disagrees with the ground truth', () => {
  it('lists exactly the items whose ground-truth overall label differs from the run verdict', () => {
    const list = listPairwiseItems(lead, pairwiseId, { judge: 'j1' });
    // agree: gt win, judge win (agrees). split: adjudicated for reviewer 1's reading, judge lose. judge-off: gt tie, judge win.
    const split = itemDetail(lead, pairwiseId, itemId('split'));
    const splitGt = split.kind === 'pairwise' ? split.criteria.find((c) => c.id === 'overall')!.groundTruth!.label : null;
    const expected = ['judge-off', ...(splitGt !== 'lose' ? ['split'] : [])].sort();
    expect(list.rows.map((r) => r.externalId).sort()).toEqual(expected);
    expect(list.rows.find((r) => r.externalId === 'judge-off')).toMatchObject({ overall: 'tie', judgeOverall: 'win' });
    expect(() => listPairwiseItems(lead, pairwiseId, { judge: 'nobody' })).toThrow(/No judge run named "nobody"/);
  });
});

describe('the item page of a flow', () => {
  it("shows each reviewer's revisions with their times, an undone one marked by the pending state", () => {
    const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
    const id = createStudy(lead, { kind: 'flow_review', name: 'Flow detail', seed: 2 }).id;
    importItems(lead, id, KMP, 'concord');
    setStudyMembers(lead, id, { usernames: ['ann1'] });
    openStudy(lead, id);
    const first = getQueue(ann1, id).currentId!;
    submitFlowReview(ann1, { assignmentId: first, requestId: 'flow-detail-0001', activeMs: 0, decision: { decision: 'verify' } });
    undoLastSubmission(ann1, { studyId: id });
    submitFlowReview(ann1, {
      assignmentId: first,
      requestId: 'flow-detail-0002',
      activeMs: 0,
      decision: { decision: 'discard', reasons: ['other'], note: 'Off by one.' },
    });
    const reviewed = listFlowDecisions(lead, id, { page: 1 }).rows.find((r) => r.decisions.length > 0)!;
    const assignmentItem = itemDetail(lead, id, reviewed.itemId);
    if (assignmentItem.kind !== 'flow_review') throw new Error('expected a flow item');
    const r = assignmentItem.reviewers[0];
    expect(r).toMatchObject({ username: 'ann1', state: 'submitted' });
    expect(r.revisions.map((v) => v.flow)).toEqual([
      { decision: 'verify', afterStep: null, reasons: [], note: null },
      { decision: 'discard', afterStep: null, reasons: ['other'], note: 'Off by one.' },
    ]);
    expect(Date.parse(r.revisions[1].at)).toBeGreaterThanOrEqual(Date.parse(r.revisions[0].at));
  });
});
