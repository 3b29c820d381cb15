import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { codeOf } from '@/test/errors';
import type { Actor } from '../actor';
import { getAdjudicationItem, submitAdjudication } from '../review/adjudication';
import { importItems } from '../imports/imports';
import { getQueue } from '../review/flow-review';
import { setComment, setFlag } from '../review/item-actions';
import { itemDetail } from './item-detail';
import { listPairwiseItems } from './items';
import { importAnnotations } from '../imports/prior-annotations';
import { createStudy, openStudy, setGroundTruthRule, setStudyMembers } from './studies';

const { dir } = useTestDatabase();
let lead: Actor, ann: Actor, a2: Actor, adj: Actor;

const pair = (id: string, principles: string[] = []) => ({
  id,
  problem: `What is 4 × 3? (${id})`,
  principles,
  history: [{ role: 'student', text: 'Is it 7?' }],
  a: { source: 'model-q', text: 'Count the groups.' },
  b: { source: 'reference', text: 'Add 3 four times.' },
});
const lines = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** A pairwise study with the given items and prior overall labels (`[item, annotator, label]`), opened for a1 and a2. */
function study(name: string, items: object[], prior: [string, string, string][], reviewers = 2, open = true) {
  const id = createStudy(lead, { kind: 'pairwise', name, seed: 3, reviewersPerItem: reviewers }).id;
  importItems(lead, id, writeTemp(dir, `${name}.jsonl`, lines(items)), 'concord');
  if (prior.length) {
    const file = writeTemp(
      dir,
      `${name}-prior.jsonl`,
      lines(prior.map(([item, annotator, l]) => ({ item, annotator, labels: { overall: l } }))),
    );
    importAnnotations(lead, id, file, 'concord');
  }
  if (open) {
    setStudyMembers(lead, id, { usernames: ['a1', 'a2', 'a3'].slice(0, reviewers), adjudicator: 'adj' });
    openStudy(lead, id);
  }
  return id;
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  ann = await makeUser('a1');
  a2 = await makeUser('a2');
  await makeUser('a3');
  adj = await makeUser('adj');
});

describe('the items of a pairwise study, for its leads', () => {
  it('gives each item its sources, principles, judgments done of planned, state and ground-truth overall label', () => {
    const id = study(
      'states',
      [pair('agree', ['Practice']), pair('settled'), pair('open'), pair('waiting')],
      [
        ['agree', 'p1', 'win'],
        ['agree', 'p2', 'win'],
        ['settled', 'p1', 'win'],
        ['settled', 'p2', 'lose'],
        ['open', 'p1', 'lose'],
        ['open', 'p2', 'tie'],
      ],
    );
    const settled = listPairwiseItems(lead, id, { q: 'settled' }).rows[0];
    const item = getAdjudicationItem(adj, id, settled.itemId);
    const overall = item.criteria.find((c) => c.id === 'overall')!;
    submitAdjudication(adj, {
      studyId: id,
      itemId: settled.itemId,
      requestId: 'adjudicate-settled-1',
      choices: { overall: overall.reviewers[1] },
    });

    const list = listPairwiseItems(lead, id, {});
    expect(list.total).toBe(4);
    expect(list.byState).toEqual({ waiting: 1, judged: 1, disagreement: 1, adjudicated: 1 });
    const byId = Object.fromEntries(list.rows.map((r) => [r.externalId, r]));
    expect(list.rows.map((r) => r.externalId)).toEqual(['agree', 'settled', 'open', 'waiting']);
    expect(byId.agree).toMatchObject({ state: 'judged', done: 2, planned: 2, overall: 'win', principles: ['Practice'] });
    expect(byId.agree).toMatchObject({ sourceA: 'model-q', sourceB: 'reference' });
    expect(byId.settled).toMatchObject({ state: 'adjudicated', done: 2, planned: 2, overall: 'lose' });
    expect(byId.open).toMatchObject({ state: 'disagreement', done: 2, planned: 2, overall: null });
    // Prior annotations fill an item's slots whole; the open study assigns this one to a1 and a2.
    expect(byId.waiting).toMatchObject({ state: 'waiting', done: 0, planned: 2, overall: null });

    expect(listPairwiseItems(lead, id, { state: 'disagreement' }).rows.map((r) => r.externalId)).toEqual(['open']);
    expect(listPairwiseItems(lead, id, { state: '', q: 'AIT' }).rows.map((r) => r.externalId)).toEqual(['waiting']);
  });

  it('under the majority rule, a split with a majority is judged, not a disagreement', () => {
    const id = study(
      'majority',
      [pair('two-to-one'), pair('three-ways')],
      [
        ['two-to-one', 'p1', 'win'],
        ['two-to-one', 'p2', 'win'],
        ['two-to-one', 'p3', 'tie'],
        ['three-ways', 'p1', 'win'],
        ['three-ways', 'p2', 'tie'],
        ['three-ways', 'p3', 'lose'],
      ],
      3,
    );
    setGroundTruthRule(lead, id, 'majority');
    const rows = listPairwiseItems(lead, id, {}).rows;
    expect(rows.map((r) => [r.externalId, r.state, r.overall])).toEqual([
      ['two-to-one', 'judged', 'win'],
      ['three-ways', 'disagreement', null],
    ]);
  });

  it('pages by 50 in item order, counts what matches, and treats % and _ in the search literally', () => {
    const items = Array.from({ length: 120 }, (_, i) => pair(`it-${String(i).padStart(3, '0')}`));
    items.push(pair('odd_one%'));
    const id = study('paging', items, [], 2, false);
    const third = listPairwiseItems(lead, id, { page: '3' });
    expect(third).toMatchObject({ total: 121, page: 3, pages: 3 });
    expect(third.rows.map((r) => r.externalId)).toEqual([...items.slice(100).map((i) => i.id)]);
    // Before the study opens nothing is assigned: the plan is the reviewers per item.
    expect(third.rows[0]).toMatchObject({ state: 'waiting', done: 0, planned: 2 });
    expect(listPairwiseItems(lead, id, { page: '99' }).page).toBe(3);
    expect(listPairwiseItems(lead, id, { q: '_' }).rows.map((r) => r.externalId)).toEqual(['odd_one%']);
    expect(listPairwiseItems(lead, id, { q: '%' }).total).toBe(1);
    expect(listPairwiseItems(lead, id, { q: 'it-11' }).total).toBe(10);
  });

  it('refuses bad filters with a message naming the field, and annotators', () => {
    const id = study('refusals', [pair('x')], [], 2, false);
    expect(() => listPairwiseItems(lead, id, { state: 'done' })).toThrow(
      /state: must be one of waiting, judged, disagreement, adjudicated/,
    );
    expect(() => listPairwiseItems(lead, id, { page: 'two' })).toThrow(/page: must be/);
    expect(() => listPairwiseItems(lead, id, { page: '0' })).toThrow(/page: must be 1 or more/);
    expect(() => listPairwiseItems(lead, id, { q: 'x'.repeat(201) })).toThrow(/q: must be at most 200 characters/);
    expect(codeOf(() => listPairwiseItems(ann, id, {}))).toBe('forbidden');
    const flows = createStudy(lead, { kind: 'flow_review', name: 'flows', seed: 1 }).id;
    expect(codeOf(() => listPairwiseItems(lead, flows, {}))).toBe('invalid');
  });

  it('filters to the items a reviewer flagged, and the item page shows each reviewer’s flag and comment to leads', () => {
    const id = study('flags', [pair('f1'), pair('f2'), pair('f3')], []);
    const first = getQueue(ann, id).currentId!;
    setFlag(ann, { assignmentId: first, reason: 'Reply b is empty' });
    setComment(ann, { assignmentId: first, comment: 'Also odd wording' });
    const other = getQueue(a2, id).currentId!;
    setComment(a2, { assignmentId: other, comment: 'Fine otherwise' });
    const flagged = listPairwiseItems(lead, id, { flagged: '1' });
    expect(flagged.total).toBe(1);
    const itemId = flagged.rows[0].itemId;
    // Only a flag counts for the filter, not a comment alone.
    expect(listPairwiseItems(lead, id, {}).total).toBe(3);
    expect(listPairwiseItems(lead, id, { flagged: '1', q: 'zzz' }).total).toBe(0);
    expect(() => listPairwiseItems(lead, id, { flagged: 'yes please' })).toThrow(/flagged: must be 1/);
    const d = itemDetail(lead, id, itemId);
    if (d.kind === 'rubric') throw new Error('a pairwise item page was expected');
    const mine = d.reviewers.find((r) => r.username === 'a1')!;
    expect(mine.remarks).toMatchObject({ flagReason: 'Reply b is empty', comment: 'Also odd wording' });
    expect(mine.remarks.flaggedAt).toMatch(/^\d{4}-/);
    setFlag(ann, { assignmentId: first, reason: null });
    expect(listPairwiseItems(lead, id, { flagged: '1' }).total).toBe(0);
    const after = itemDetail(lead, id, itemId);
    if (after.kind === 'rubric') throw new Error('a pairwise item page was expected');
    expect(after.reviewers.find((r) => r.username === 'a1')!.remarks).toEqual({
      flagReason: null,
      flaggedAt: null,
      comment: 'Also odd wording',
    });
    expect(codeOf(() => itemDetail(ann, id, itemId))).toBe('forbidden');
  });
});
