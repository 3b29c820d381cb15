import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';
import { getAssignmentView, getQueue } from './flow-review';
import { getJudgeAssignment, submitJudgment } from './judging';
import { disputedItems } from './disputes';
import { goldAccuracy, setGoldSettings, setItemGold } from './gold';
import { annotatorsReport } from '../analytics/annotators';
import { findStudy } from '@/db/queries/studies';
import { groundTruth, summarize } from '../ground-truth/ground-truth';
import { listPairwiseItems } from '../studies/items';
import { agreementReport } from '../analytics/agreement';

/*
 * Blinding of gold items: served to reviewers as any other item (also when marked after the study opens), and kept
 * out of disputes, ground truth and agreement.
 */

// One database for the file: each describe below makes its own accounts and study in it.
const { dir } = useTestDatabase();

describe('gold items', () => {
  const PAIRS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl');
  let lead: Actor, g1: Actor, g2: Actor, studyId: number;
  let goldIds: number[];
  let twinOf: Map<number, number>;
  const db = () => getDb().$client;
  const mine = (who: Actor) =>
    db()
      .prepare('SELECT id, item_id AS itemId FROM assignments WHERE study_id = ? AND user_id = ? ORDER BY queue_position')
      .all(studyId, who.id) as {
      id: number;
      itemId: number;
    }[];
  /** Every key path of a value, so two answers can be compared by shape. */
  const shape = (v: unknown, at = ''): string[] =>
    v !== null && typeof v === 'object'
      ? Object.entries(v).flatMap(([k, x]) => [`${at}.${Array.isArray(v) ? '#' : k}`, ...shape(x, `${at}.${Array.isArray(v) ? '#' : k}`)])
      : [];

  beforeAll(async () => {
    lead = await makeUser('goldlead', 'lead');
    [g1, g2] = await Promise.all(['chk1', 'chk2'].map((u) => makeUser(u)));
    studyId = createStudy(lead, { kind: 'pairwise', name: 'Checked pairs', reviewersPerItem: 2, seed: 9 }).id;
    const lines = fs.readFileSync(PAIRS, 'utf8').trim().split('\n');
    const many = Array.from({ length: 15 }, (_, i) => JSON.stringify({ ...JSON.parse(lines[i % lines.length]), id: `pair-${i + 1}` }));
    importItems(lead, studyId, writeTemp(dir, 'gold-pairs.jsonl', many.join('\n')), 'concord');
    setStudyMembers(lead, studyId, { usernames: ['chk1', 'chk2'] });
    goldIds = db()
      .prepare("SELECT id FROM items WHERE study_id = ? AND external_id IN ('pair-4', 'pair-8', 'pair-12')")
      .pluck()
      .all(studyId) as number[];
    for (const itemId of goldIds) setItemGold(lead, studyId, { itemId, labels: { overall: 'win' } });
    const idOf = (ext: string) =>
      db().prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, ext) as number;
    twinOf = new Map([4, 8, 12].map((k) => [idOf(`pair-${k}`), idOf(`pair-${k - 3}`)]));
    setGoldSettings(lead, studyId, { ratePct: 30, alertBelowPct: 80 });
    openStudy(lead, studyId);
  });

  it('reach the reviewer exactly as any other item: same queue, same item view, whether marked gold or not', () => {
    const gold = new Set(goldIds);
    const before = new Map<string, string>();
    for (const who of [g1, g2]) {
      const rows = mine(who);
      // Both reviewers got every gold item, among the regular ones (not all first or last).
      expect(rows.filter((r) => gold.has(r.itemId))).toHaveLength(3);
      expect(
        gold.has(rows[rows.length - 1].itemId) && gold.has(rows[rows.length - 2].itemId) && gold.has(rows[rows.length - 3].itemId),
      ).toBe(false);
      for (const r of rows.filter((r) => gold.has(r.itemId))) {
        const view = getAssignmentView(who, r.id);
        // Its twin: the regular item made from the same line of the file (pair-4 and pair-1, …) has the same shape.
        const twin = twinOf.get(r.itemId)!;
        expect(shape(view).sort()).toEqual(shape(getAssignmentView(who, rows.find((x) => x.itemId === twin)!.id)).sort());
        expect(JSON.stringify(view)).not.toMatch(/gold/i);
        before.set(`${who.id}/${r.id}`, JSON.stringify(view));
      }
      before.set(`${who.id}/queue`, JSON.stringify(getQueue(who, studyId)));
      expect(before.get(`${who.id}/queue`)).not.toMatch(/gold/i);
    }
    // Unmarking changes nothing a reviewer receives: the answers before were those of ordinary items.
    for (const itemId of goldIds) setItemGold(lead, studyId, { itemId, labels: { overall: null } });
    for (const who of [g1, g2]) {
      for (const r of mine(who).filter((r) => gold.has(r.itemId)))
        expect(JSON.stringify(getAssignmentView(who, r.id))).toBe(before.get(`${who.id}/${r.id}`));
      expect(JSON.stringify(getQueue(who, studyId))).toBe(before.get(`${who.id}/queue`));
    }
    for (const itemId of goldIds) setItemGold(lead, studyId, { itemId, labels: { overall: 'win' } });
  });

  it('stay out of the adjudicator’s disputes, which they would otherwise join', () => {
    let n = 0;
    for (const [who, choice] of [
      [g1, 'tie'],
      [g2, 'r1'],
    ] as const) {
      for (let q = getQueue(who, studyId); q.currentId !== null; q = getQueue(who, studyId)) {
        const a = getJudgeAssignment(who, q.currentId);
        const choices = Object.fromEntries(a.criteria.map((c) => [c.id, choice]));
        submitJudgment(who, {
          assignmentId: a.assignmentId,
          requestId: `gold-blind-${String(++n).padStart(4, '0')}`,
          activeMs: 0,
          choices,
        });
      }
    }
    const study = findStudy(getDb(), studyId)!;
    const disputed = () => new Set(disputedItems(getDb(), study).map((d) => d.itemId));
    // Tie against a preference: every item splits, the 12 regular ones are disputed.
    expect(disputed().size).toBe(12);
    for (const id of goldIds) expect(disputed().has(id)).toBe(false);
    setItemGold(lead, studyId, { itemId: goldIds[0], labels: { overall: null } });
    expect(disputed().has(goldIds[0])).toBe(true);
    setItemGold(lead, studyId, { itemId: goldIds[0], labels: { overall: 'win' } });
  });

  it('stay out of ground truth and agreement, which count only the other items', () => {
    const study = findStudy(getDb(), studyId)!;
    // 15 items, 3 of them gold: both reviewers labelled all 15.
    expect(summarize(getDb(), study).items).toBe(12);
    // The export's rows: every item disagrees, so each is reported as not settled, gold items not at all.
    const unsettled: string[] = [];
    expect([...groundTruth(getDb(), study, (ext) => unsettled.push(ext))]).toEqual([]);
    expect(unsettled).toHaveLength(12);
    expect(unsettled).not.toContain('pair-4');
    const overall = agreementReport(lead, studyId, { bootstrap: 0 }).criteria.find((c) => c.criterion === 'overall')!;
    expect(overall.items).toBe(12);
    expect(overall.ratings).toBe(24);
    // The lead's items list still shows every item, gold ones with their state.
    expect(listPairwiseItems(lead, studyId, {}).total).toBe(15);
    setItemGold(lead, studyId, { itemId: goldIds[0], labels: { overall: null } });
    expect(summarize(getDb(), study).items).toBe(13);
    expect(agreementReport(lead, studyId, { bootstrap: 0 }).criteria.find((c) => c.criterion === 'overall')!.items).toBe(13);
  });

  it('are scored in the annotator quality report exactly as the gold report scores them', () => {
    const gold = goldAccuracy(lead, studyId);
    const quality = annotatorsReport(lead, studyId);
    expect(gold.reviewers.length).toBe(2);
    for (const g of gold.reviewers) {
      const a = quality.annotators.find((x) => x.userId === g.userId)!;
      expect(a.gold).toEqual({
        n: g.compared,
        k: g.correct,
        rate: { value: g.accuracy },
        interval: { method: 'wilson', lower: g.intervals.accuracy.lower, upper: g.intervals.accuracy.upper },
      });
    }
  });
});

describe('gold items marked after the study opens', () => {
  const PAIRS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl');
  let lead: Actor, reviewers: Actor[], studyId: number;
  const db = () => getDb().$client;
  type Row = { id: number; itemId: number; queuePosition: number; state: string };
  const mine = (who: Actor) =>
    db()
      .prepare(
        'SELECT id, item_id AS itemId, queue_position AS queuePosition, state FROM assignments WHERE study_id = ? AND user_id = ? ORDER BY queue_position',
      )
      .all(studyId, who.id) as Row[];
  const idOf = (ext: string) =>
    db().prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, ext) as number;
  let n = 0;
  const submitFirst = (who: Actor) => {
    const a = getJudgeAssignment(who, getQueue(who, studyId).currentId!);
    const choices = Object.fromEntries(a.criteria.map((c) => [c.id, 'tie']));
    submitJudgment(who, { assignmentId: a.assignmentId, requestId: `late-gold-${String(++n).padStart(4, '0')}`, activeMs: 0, choices });
  };

  beforeAll(async () => {
    lead = await makeUser('lategoldlead', 'lead');
    reviewers = await Promise.all(['late1', 'late2', 'late3'].map((u) => makeUser(u)));
    // 12 items, two reviewers each of three: 8 regular items per reviewer. At a 20 % rate a queue of 8 takes 2 gold.
    studyId = createStudy(lead, { kind: 'pairwise', name: 'Checked later', reviewersPerItem: 2, seed: 11 }).id;
    const lines = fs.readFileSync(PAIRS, 'utf8').trim().split('\n');
    const many = Array.from({ length: 13 }, (_, i) => JSON.stringify({ ...JSON.parse(lines[i % lines.length]), id: `late-${i + 1}` }));
    importItems(lead, studyId, writeTemp(dir, 'late-gold-pairs.jsonl', many.join('\n')), 'concord');
    setStudyMembers(lead, studyId, { usernames: ['late1', 'late2', 'late3'] });
    setItemGold(lead, studyId, { itemId: idOf('late-13'), labels: { overall: 'win' } });
    setGoldSettings(lead, studyId, { ratePct: 20, alertBelowPct: null });
    openStudy(lead, studyId);
    // Each reviewer has labelled their first two items.
    for (const who of reviewers) [0, 1].forEach(() => submitFirst(who));
  });

  it('go into the pending queue of each reviewer who lacks them, after the current item, up to the gold rate, served like any other', () => {
    for (const who of reviewers) expect(mine(who).filter((r) => r.itemId === idOf('late-13'))).toHaveLength(1);
    // An item two of the three reviewers hold: the third gets it.
    const marked = idOf('late-5');
    const holders = reviewers.filter((who) => mine(who).some((r) => r.itemId === marked));
    expect(holders).toHaveLength(2);
    const [third] = reviewers.filter((who) => !holders.includes(who));
    const before = new Map(reviewers.map((who) => [who.id, mine(who)]));
    const queueBefore = getQueue(third, studyId);

    setItemGold(lead, studyId, { itemId: marked, labels: { overall: 'lose' } });

    for (const who of holders) expect(mine(who)).toEqual(before.get(who.id));
    const after = mine(third);
    const added = after.filter((r) => r.itemId === marked);
    expect(added).toHaveLength(1);
    expect(added[0].state).toBe('pending');
    // The rest of the queue keeps its order; what was submitted keeps its place; the current item stays current.
    const old = before.get(third.id)!;
    expect(after.filter((r) => r.itemId !== marked).map((r) => r.id)).toEqual(old.map((r) => r.id));
    for (const r of old.filter((x) => x.state === 'submitted'))
      expect(after.find((x) => x.id === r.id)!.queuePosition).toBe(r.queuePosition);
    const queueAfter = getQueue(third, studyId);
    expect(queueAfter.currentId).toBe(queueBefore.currentId);
    expect(queueAfter.total).toBe(queueBefore.total + 1);
    const pendingAfter = after.filter((r) => r.state === 'pending');
    expect(pendingAfter.findIndex((r) => r.itemId === marked)).toBeGreaterThan(0);
    expect(new Set(after.map((r) => r.queuePosition)).size).toBe(after.length);

    // Served like any other item: the view and the queue are the same whether the item is gold or not.
    const view = JSON.stringify(getAssignmentView(third, added[0].id));
    const queue = JSON.stringify(getQueue(third, studyId));
    expect(view).not.toMatch(/gold/i);
    expect(queue).not.toMatch(/gold/i);
    setItemGold(lead, studyId, { itemId: marked, labels: { overall: null } });
    expect(JSON.stringify(getAssignmentView(third, added[0].id))).toBe(view);
    expect(JSON.stringify(getQueue(third, studyId))).toBe(queue);
    // Marked again: nobody gets it twice.
    setItemGold(lead, studyId, { itemId: marked, labels: { overall: 'lose' } });
    expect(mine(third).filter((r) => r.itemId === marked)).toHaveLength(1);

    // The third reviewer now holds two gold items, what 20 % of their 8 regular ones allows: another marked item
    // they lack does not reach them; a reviewer under the rate still gets it.
    const other = [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12]
      .map((k) => idOf(`late-${k}`))
      .find((id) => !mine(third).some((r) => r.itemId === id))!;
    const lacking = reviewers.filter((who) => !mine(who).some((r) => r.itemId === other));
    expect(lacking.map((w) => w.id)).toEqual([third.id]);
    const thirdBefore = mine(third);
    setItemGold(lead, studyId, { itemId: other, labels: { overall: 'tie' } });
    expect(mine(third)).toEqual(thirdBefore);
  });
});
