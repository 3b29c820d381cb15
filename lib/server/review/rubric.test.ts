import { beforeAll, describe, expect, it } from 'vitest';
import { saveDraft } from './draft';
import { getDb } from '@/db/client';
import { parseCsv } from '@/test/csv';
import { codeOf } from '@/test/errors';
import { refOf } from '@/test/item-refs';
import { makeUser, useTestDatabase } from '@/test/db';
import { addRubricJudgeRun, createRubricStudy, mrbenchItems } from '@/test/rubric-fixtures-rscreen';
import { getRubricItem } from '../studies/item-dimensions';
import { listRubricItems } from '../studies/items';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import type { Actor } from '../actor';
import { exportGroundTruth } from '../ground-truth/ground-truth';
import { rubricGroundTruth } from '../ground-truth/ground-truth';
import { getAdjudicationQueue, getRubricAdjudicationItem, submitRubricAdjudication } from './adjudication';
import { getAssignmentView, getQueue, undoLastSubmission } from './flow-review';
import { getRubricAssignment, submitRubric } from './rubric';
import { submitAndQueue } from './submit-and-queue';
import * as studiesQ from '@/db/queries/studies';

useTestDatabase();
const DIMS = MRBENCH_V3_CATALOG.map((d) => d.id);
const count = (sql: string, ...args: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...args) as number;
let n = 0;
const rid = () => `rq-${String(++n).padStart(6, '0')}`;
/** Labels by dimension, in catalog order: 'YNT-' = Yes, No, To some extent, none. */
const L = (letters: string) => {
  const name: Record<string, string> = { Y: 'Yes', N: 'No', T: 'To some extent' };
  return Object.fromEntries([...letters].flatMap((c, k) => (c === '-' ? [] : [[DIMS[k], name[c]]])));
};

let lead: Actor, r1: Actor, r2: Actor, adj: Actor, outsider: Actor;
let studyId: number;
/** The item whose reviewers disagree on every dimension and which nobody rules on. */
let splitId = '';
const items = mrbenchItems(2, ['Sonnet', 'GPT4', 'Expert']);

function current(who: Actor) {
  return getRubricAssignment(who, getQueue(who, studyId).currentId!);
}
function labelCurrent(who: Actor, letters: string, note?: string) {
  const a = current(who);
  submitRubric(who, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 500, labels: L(letters), ...(note ? { note } : {}) });
  return a;
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  [r1, r2, adj, outsider] = await Promise.all(['rone', 'rtwo', 'adj', 'outsider'].map((u) => makeUser(u)));
  studyId = createRubricStudy(lead, { name: 'MRBench slice', items, reviewers: ['rone', 'rtwo'], adjudicator: 'adj' });
});

describe('the rubric screen’s data', () => {
  it('gives each reviewer every item once, blind, with the dimensions in catalog order and the group position', () => {
    expect(items).toHaveLength(6);
    const q = getQueue(r1, studyId);
    expect(q.kind).toBe('rubric');
    expect(q.total).toBe(6);
    const a = current(r1);
    expect(a.kind).toBe('rubric');
    expect(a.dimensions.map((d) => d.id)).toEqual(DIMS);
    expect(a.dimensions[0].labels).toEqual(['No', 'To some extent', 'Yes']);
    // The reply on screen is exactly one of the study's items.
    const matching = items.filter((i) => i.reply!.text === a.reply);
    expect(matching).toHaveLength(1);
    const item = matching[0];
    expect(a.history).toEqual(item.history);
    expect(a.group).toMatchObject({ count: 3 });
    expect(a.group!.index).toBeGreaterThanOrEqual(1);
    const json = JSON.stringify(getAssignmentView(r1, a.assignmentId));
    for (const i of items) {
      expect(json).not.toContain(i.reply!.source);
      expect(json).not.toContain(i.id);
      expect(json).not.toContain(i.group!);
    }
  });

  it('keeps a draft (labels, focus, note) across a reload and refuses another reviewer’s assignment', () => {
    const a = current(r1);
    saveDraft(r1, { assignmentId: a.assignmentId, draft: { labels: L('Y---'), focus: 1, note: 'half way' }, activeMs: 100 });
    expect(getRubricAssignment(r1, a.assignmentId).draft).toEqual({ labels: L('Y---'), focus: 1, note: 'half way' });
    expect(codeOf(() => getRubricAssignment(r2, a.assignmentId))).toBe('not_found');
    expect(codeOf(() => getRubricAssignment(outsider, a.assignmentId))).toBe('not_found');
  });

  it('refuses an incomplete set, an unknown label (naming the allowed ones) and an unknown dimension, writing nothing', () => {
    const a = current(r1);
    const before = count('SELECT count(*) FROM annotations');
    const missing = () => submitRubric(r1, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 1, labels: L('YY-Y') });
    expect(codeOf(missing)).toBe('invalid');
    expect(() => missing()).toThrow(/missing: mistake_location|missing: providing_guidance/);
    const wrong = { ...L('YYYY'), actionability: 'Maybe' };
    expect(() => submitRubric(r1, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 1, labels: wrong })).toThrow(
      /"Maybe" is not one of No, To some extent, Yes/,
    );
    const extra = { ...L('YYYY'), tone: 'Yes' };
    expect(() => submitRubric(r1, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 1, labels: extra })).toThrow(
      /tone is not a dimension/,
    );
    expect(count('SELECT count(*) FROM annotations')).toBe(before);
  });

  it('stores names as codes, the note, and answers a retry with the first result; other labels under that id are a conflict', () => {
    const a = current(r1);
    const input = { assignmentId: a.assignmentId, requestId: 'retry-000001', activeMs: 900, labels: L('YTNY'), note: '  close call  ' };
    const first = submitAndQueue(r1, input);
    expect(first.duplicate).toBe(false);
    // The same labels in another key order: the same submission.
    const reordered = { ...input, labels: Object.fromEntries(Object.entries(input.labels).reverse()) };
    expect(submitRubric(r1, reordered)).toMatchObject({ duplicate: true, revision: first.revision });
    expect(codeOf(() => submitRubric(r1, { ...input, labels: L('NNNN') }))).toBe('conflict');
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', a.assignmentId)).toBe(1);
    const codes = getDb()
      .$client.prepare(
        'SELECT l.dimension, l.label FROM rubric_labels l JOIN annotations an ON an.id = l.annotation_id WHERE an.assignment_id = ? ORDER BY l.dimension',
      )
      .all(a.assignmentId);
    expect(codes).toEqual([
      { dimension: 0, label: 2 },
      { dimension: 1, label: 1 },
      { dimension: 2, label: 0 },
      { dimension: 3, label: 2 },
    ]);
    // The dashboards' pack got one character per label: 48 + 16·dimension + label.
    const pack = count(
      'SELECT p.packed FROM annotation_packs p JOIN annotations an ON an.id = p.annotation_id WHERE an.assignment_id = ?',
      a.assignmentId,
    ) as unknown as string;
    expect([...pack].map((c) => c.charCodeAt(0))).toEqual([48 + 2, 48 + 16 + 1, 48 + 32, 48 + 48 + 2]);
    expect(getRubricAssignment(r1, a.assignmentId).submitted).toEqual({ labels: L('YTNY'), note: 'close call' });
    expect(first.queue.submitted).toBe(1);
  });

  it('undoes the last submission into a draft with its labels and note; a replay of the undone request is a conflict', () => {
    const { assignmentId } = undoLastSubmission(r1, { studyId });
    const a = getRubricAssignment(r1, assignmentId);
    expect(a.state).toBe('pending');
    expect(a.draft).toEqual({ labels: L('YTNY'), note: 'close call' });
    expect(getQueue(r1, studyId).currentId).toBe(assignmentId);
    expect(
      codeOf(() => submitRubric(r1, { assignmentId, requestId: 'retry-000001', activeMs: 900, labels: L('YTNY'), note: 'close call' })),
    ).toBe('conflict');
    submitRubric(r1, { assignmentId, requestId: rid(), activeMs: 900, labels: L('YTNY'), note: 'close call' });
    expect(count('SELECT count(*) FROM annotations WHERE assignment_id = ?', assignmentId)).toBe(2);
  });
});

describe('disagreements, adjudication and ground truth', () => {
  /** The item each reviewer labels with which letters, by the reply's text (their queues differ in order). */
  const plan = new Map<string, [string, string]>();
  beforeAll(() => {
    // Item 1: all agree. Item 2: one dimension split. Items 3–6: every dimension split on item 3, agreement elsewhere.
    items.forEach((it, i) =>
      plan.set(it.reply!.text, i === 0 ? ['YTNY', 'YTNY'] : i === 1 ? ['YYYY', 'YYYN'] : i === 2 ? ['YYYY', 'NNNN'] : ['TTTT', 'TTTT']),
    );
    // rone already submitted one item ('YTNY'); make its plan fit whatever item that was.
    const done = getDb()
      .$client.prepare(`SELECT i.payload FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.user_id = ? AND a.state = 'submitted'`)
      .pluck()
      .get(r1.id) as string;
    const text = (JSON.parse(done) as { reply: { text: string } }).reply.text;
    const first = items.findIndex((i) => i.reply!.text === text);
    if (first !== 0) {
      // Swap plans so that the already submitted item is the all-agree one.
      const other = items[0].reply!.text;
      const mine = plan.get(text)!;
      plan.set(text, ['YTNY', 'YTNY']);
      plan.set(other, mine);
    }
    splitId = items.find((i) => plan.get(i.reply!.text)![1] === 'NNNN')!.id;
    for (const [who, side] of [
      [r1, 0],
      [r2, 1],
    ] as const) {
      for (;;) {
        const q = getQueue(who, studyId);
        if (q.currentId === null) break;
        const a = getRubricAssignment(who, q.currentId);
        labelCurrent(who, plan.get(a.reply!)![side]);
      }
    }
  });

  it('lists the items the rule leaves open, with their number of disputed dimensions', () => {
    const q = getAdjudicationQueue(adj, studyId);
    expect(q.kind).toBe('rubric');
    expect(q.total).toBe(2);
    expect(q.items.map((i) => i.disagreements).sort()).toEqual([1, 4]);
    expect(codeOf(() => getAdjudicationQueue(r1, studyId))).toBe('forbidden');
    expect(codeOf(() => getAdjudicationQueue(outsider, studyId))).toBe('not_found');
  });

  it('shows Reviewer 1 / Reviewer 2 labels per dimension, the disagreeing dimensions first', () => {
    const q = getAdjudicationQueue(adj, studyId);
    const one = q.items.find((i) => i.disagreements === 1)!;
    const item = getRubricAdjudicationItem(adj, studyId, one.itemId);
    expect(item.dimensions[0]).toMatchObject({ id: 'actionability', agreed: false, settled: null });
    expect([...item.dimensions[0].reviewers].sort()).toEqual(['No', 'Yes']);
    expect(item.dimensions.slice(1).map((d) => [d.id, d.agreed, d.settled])).toEqual([
      ['mistake_identification', true, 'Yes'],
      ['mistake_location', true, 'Yes'],
      ['providing_guidance', true, 'Yes'],
    ]);
    const json = JSON.stringify(item);
    for (const i of items) expect(json).not.toContain(i.reply!.source);
    expect(json).not.toContain('rone');
  });

  it('refuses incomplete rulings, an overrule without a rationale and a settled dimension; then records idempotently', () => {
    const q = getAdjudicationQueue(adj, studyId);
    const one = q.items.find((i) => i.disagreements === 1)!;
    const base = { studyId, itemId: one.itemId };
    expect(codeOf(() => submitRubricAdjudication(adj, { ...base, requestId: rid(), labels: {} }))).toBe('invalid');
    expect(() => submitRubricAdjudication(adj, { ...base, requestId: rid(), labels: { actionability: 'To some extent' } })).toThrow(
      /Explain why/,
    );
    expect(() =>
      submitRubricAdjudication(adj, { ...base, requestId: rid(), labels: { actionability: 'Yes', mistake_location: 'No' } }),
    ).toThrow(/not yours to decide/);
    expect(() => submitRubricAdjudication(adj, { ...base, requestId: rid(), labels: { actionability: 'Perhaps' } })).toThrow(
      /"Perhaps" is not one of No, To some extent, Yes/,
    );
    expect(codeOf(() => submitRubricAdjudication(r1, { ...base, requestId: rid(), labels: { actionability: 'Yes' } }))).toBe('forbidden');
    expect(count('SELECT count(*) FROM rubric_adjudications')).toBe(0);
    const input = {
      ...base,
      requestId: 'ruling-00001',
      labels: { actionability: 'To some extent' },
      rationales: { actionability: 'Half a step.' },
    };
    expect(submitRubricAdjudication(adj, input)).toEqual({ itemId: one.itemId, duplicate: false });
    expect(submitRubricAdjudication(adj, input)).toEqual({ itemId: one.itemId, duplicate: true });
    expect(codeOf(() => submitRubricAdjudication(adj, { ...input, labels: { actionability: 'Yes' } }))).toBe('conflict');
    expect(count('SELECT count(*) FROM rubric_adjudications')).toBe(1);
    expect(getAdjudicationQueue(adj, studyId).resolved).toBe(1);
    const after = getRubricAdjudicationItem(adj, studyId, one.itemId);
    expect(after.dimensions[0]).toMatchObject({ ruling: 'To some extent', rationale: 'Half a step.' });
  });

  it('an adjudicated item can no longer be undone by its reviewers; before the ruling it can', () => {
    const one = mrbenchItems(3, ['Expert']).slice(2);
    const small = createRubricStudy(lead, { name: 'One reply', items: one, reviewers: ['rone', 'rtwo'], adjudicator: 'adj' });
    for (const [who, letters] of [
      [r1, 'YYYY'],
      [r2, 'YYYN'],
    ] as const) {
      const a = getRubricAssignment(who, getQueue(who, small).currentId!);
      submitRubric(who, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 1, labels: L(letters) });
    }
    // Before any ruling, the reviewer may take it back and submit again.
    const { assignmentId } = undoLastSubmission(r2, { studyId: small });
    submitRubric(r2, { assignmentId, requestId: rid(), activeMs: 1, labels: L('YYYN') });
    const itemId = getAdjudicationQueue(adj, small).currentItemId!;
    submitRubricAdjudication(adj, { studyId: small, itemId, requestId: rid(), labels: { actionability: 'Yes' } });
    for (const who of [r1, r2]) {
      expect(() => undoLastSubmission(who, { studyId: small })).toThrow(/has been adjudicated/);
      expect(getQueue(who, small).submitted).toBe(1);
    }
  });

  it('leaves the open item out of the ground truth and settles the rest: agreed and adjudicated, lenient beside strict', () => {
    const study = studiesQ.findStudy(getDb(), studyId)!;
    const left: string[] = [];
    const rows = [...rubricGroundTruth(getDb(), study, (id) => left.push(id))];
    expect(left).toEqual([splitId]);
    expect(rows).toHaveLength(5 * 4);
    const ruled = rows.find((r) => r.provenance === 'adjudicated')!;
    expect(ruled).toMatchObject({
      dimension: 'actionability',
      label: 'To some extent',
      lenient: 'Yes',
      rationale: 'Half a step.',
      adjudicator: 'adj',
    });
    expect([...ruled.reviewers].sort()).toEqual(['No', 'Yes']);
    const agreedT = rows.filter((r) => r.label === 'To some extent' && r.provenance === 'agreed');
    expect(agreedT.every((r) => r.lenient === 'Yes')).toBe(true);
    expect(rows.filter((r) => r.label === 'No').every((r) => r.lenient === 'No')).toBe(true);
    expect(rows.every((r) => r.source !== null && r.group !== null)).toBe(true);
  });

  it('under the majority rule a two-way split still needs the adjudicator (no majority of two)', () => {
    getDb().$client.prepare(`UPDATE studies SET ground_truth_rule = 'majority' WHERE id = ?`).run(studyId);
    try {
      expect(getAdjudicationQueue(adj, studyId).total).toBe(2);
    } finally {
      getDb().$client.prepare(`UPDATE studies SET ground_truth_rule = 'adjudicated' WHERE id = ?`).run(studyId);
    }
  });

  it('exports JSONL and CSV with each reviewer’s label and the lenient label; only for staff', async () => {
    const jsonl = exportGroundTruth(lead, studyId, 'jsonl');
    expect(jsonl.summary).toMatchObject({ items: 6, complete: 5, incomplete: 1, labels: 20, adjudicated: 1 });
    const lines = [...jsonl.lines]
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(20);
    expect(Object.keys(lines[0])).toEqual([
      'item',
      'group',
      'source',
      'dimension',
      'label',
      'lenient_label',
      'provenance',
      'reviewers',
      'adjudicator',
      'rationale',
    ]);
    const csv = parseCsv([...exportGroundTruth(lead, studyId, 'csv').lines].join(''));
    expect(csv[0]).toEqual([
      'item',
      'group',
      'source',
      'dimension',
      'label',
      'lenient_label',
      'provenance',
      'reviewer1_label',
      'reviewer2_label',
      'adjudicator',
      'rationale',
    ]);
    expect(csv).toHaveLength(21);
    const ruled = csv.find((r) => r[6] === 'adjudicated')!;
    expect(ruled.slice(3, 7)).toEqual(['actionability', 'To some extent', 'Yes', 'adjudicated']);
    expect(ruled[10]).toBe('Half a step.');
    expect(codeOf(() => exportGroundTruth(r1, studyId, 'csv'))).toBe('forbidden');
    expect(codeOf(() => exportGroundTruth(lead, studyId, 'xml'))).toBe('invalid');
  });
});

describe('the rubric items list and item page for leads', () => {
  it('counts items by state and filters by disagreement and adjudicated', () => {
    const all = listRubricItems(lead, studyId, {});
    expect(all.total).toBe(6);
    expect(all.byState).toEqual({ waiting: 0, labelled: 4, disagreement: 1, adjudicated: 1 });
    const open = listRubricItems(lead, studyId, { state: 'disagreement' });
    expect(open.rows.map((r) => [r.externalId, r.disputed])).toEqual([[splitId, 4]]);
    const ruled = listRubricItems(lead, studyId, { state: 'adjudicated' });
    expect(ruled.rows).toHaveLength(1);
    expect(ruled.rows[0]).toMatchObject({ done: 2, planned: 2, disputed: 1 });
    expect(listRubricItems(lead, studyId, { q: items[0].reply!.source }).total).toBe(2);
    expect(() => listRubricItems(lead, studyId, { state: 'lost' })).toThrow(
      /state: must be one of waiting, labelled, disagreement, adjudicated/,
    );
    expect(codeOf(() => listRubricItems(r1, studyId, {}))).toBe('forbidden');
  });

  it('shows each reviewer’s labels per dimension, the ruling, the final and lenient label, and judge verdicts', () => {
    const ruledId = listRubricItems(lead, studyId, { state: 'adjudicated' }).rows[0].itemId;
    const ext = listRubricItems(lead, studyId, { state: 'adjudicated' }).rows[0].externalId;
    addRubricJudgeRun(lead, studyId, 'judge-a', [
      { item: ext, labels: { actionability: 'Yes' }, rationale: 'ZQXJUDGE reasoning' },
      { item: ext, labels: { actionability: 'To some extent' }, sample: 2 },
    ]);
    const d = getRubricItem(lead, studyId, ruledId);
    expect(d.source).toBe(items.find((i) => i.id === ext)!.reply!.source);
    expect(d.reviewers.map((r) => r.username).sort()).toEqual(['rone', 'rtwo']);
    const act = d.dimensions.find((x) => x.id === 'actionability')!;
    expect([...act.labels].sort()).toEqual(['No', 'Yes']);
    expect(act).toMatchObject({
      needsAdjudication: true,
      ruling: { label: 'To some extent', rationale: 'Half a step.', adjudicator: 'adj' },
      final: { label: 'To some extent', lenient: 'Yes', provenance: 'adjudicated' },
    });
    expect(act.judges).toEqual([
      { run: 'judge-a', sample: 1, label: 'Yes', rationale: 'ZQXJUDGE reasoning' },
      { run: 'judge-a', sample: 2, label: 'To some extent', rationale: null },
    ]);
    expect(d.dimensions[0]).toMatchObject({ needsAdjudication: false, final: { label: 'Yes', provenance: 'agreed' }, judges: [] });
    // Judge verdicts never reach a reviewer's or the adjudicator's view.
    expect(JSON.stringify(getRubricAdjudicationItem(adj, studyId, refOf(studyId, ruledId)))).not.toContain('ZQXJUDGE reasoning');
    expect(codeOf(() => getRubricItem(adj, studyId, ruledId))).toBe('forbidden');
  });
});
