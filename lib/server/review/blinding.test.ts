import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { codeOf } from '@/test/errors';
import { rowIdOf } from '@/test/item-refs';
import { startStandIn } from '@/test/judge-standin';
import { PAIRWISE_CRITERION_TEMPLATE } from '@/lib/validation/judge-templates';
import { createJudgeEndpoint } from '../judges/endpoints';
import * as judges from '../judges/judges';
import { runJudge } from '../judges/runner';
import { addRubricJudgeRun, createRubricStudy, mrbenchItems } from '@/test/rubric-fixtures-rscreen';
import type { RubricItem } from '@/lib/validation/rubric';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { createStudy, listMyStudies, openStudy, setStudyCriteria, setStudyMembers } from '../studies/studies';
import { getAdjudicationItem, getAdjudicationQueue, getAdjudicationView } from './adjudication';
import { adjudicatorSwapped, toCanonical, toScreen } from './blinding';
import type { ScreenChoice } from './dto';
import { getRubricItem } from '../studies/item-dimensions';
import { getAssignmentView, getMySubmission, getQueue } from './flow-review';
import { getSubmissionHistory, setComment, setFlag } from './item-actions';
import { getJudgeAssignment, submitJudgment } from './judging';
import { submitAndQueue } from './submit-and-queue';
import { disputedItems } from './disputes';
import { goldAccuracy, setGoldSettings, setItemGold } from './gold';
import { annotatorsReport } from '../analytics/annotators';
import { findStudy } from '@/db/queries/studies';
import { groundTruth, summarize } from '../ground-truth/ground-truth';
import { listPairwiseItems } from '../studies/items';
import { agreementReport } from '../analytics/agreement';

// One database for the file: each describe below makes its own accounts and study in it.
const { dir } = useTestDatabase();

describe('display order', () => {
  it('maps what a person pressed to reply a’s side and back', () => {
    expect(toCanonical('r1', false)).toBe('win');
    expect(toCanonical('r1', true)).toBe('lose');
    expect(toCanonical('r2', false)).toBe('lose');
    expect(toCanonical('r2', true)).toBe('win');
    expect(toCanonical('tie', true)).toBe('tie');
    for (const swapped of [false, true])
      for (const c of ['r1', 'tie', 'r2'] as ScreenChoice[]) expect(toScreen(toCanonical(c, swapped), swapped)).toBe(c);
  });

  it('gives adjudicators a stable order that varies across items', () => {
    expect(adjudicatorSwapped(5, 10, 3)).toBe(adjudicatorSwapped(5, 10, 3));
    const share = Array.from({ length: 1000 }, (_, i) => adjudicatorSwapped(5, i, 3)).filter(Boolean).length / 1000;
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.6);
  });
});

describe('what the answers of flag, comment and history carry to a reviewer', () => {
  let lead: Actor, a1: Actor, a2: Actor;
  let studyId: number;

  beforeAll(async () => {
    lead = await makeUser('lead', 'lead');
    [a1, a2] = await Promise.all(['a1', 'a2'].map((u) => makeUser(u)));
    studyId = createStudy(lead, { kind: 'pairwise', name: 'Pairs', seed: 3 }).id;
    importItems(lead, studyId, path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl'), 'concord');
    setStudyMembers(lead, studyId, { usernames: ['a1', 'a2'] });
    openStudy(lead, studyId);
  });

  it('never carry a source, an external id, a judge or the other reviewer', () => {
    let n = 0;
    // Both reviewers work on the same items; a2 flags and comments on each, a1 judges and comments.
    for (const who of [a2, a1]) {
      for (let q = getQueue(who, studyId); q.currentId !== null; q = getQueue(who, studyId)) {
        const a = getJudgeAssignment(who, q.currentId);
        setFlag(who, { assignmentId: a.assignmentId, reason: `flag by ${who.username}` });
        setComment(who, { assignmentId: a.assignmentId, comment: `comment by ${who.username}` });
        const choices = Object.fromEntries(a.criteria.map((c) => [c.id, 'tie']));
        submitJudgment(who, { assignmentId: a.assignmentId, requestId: `blind-${String(++n).padStart(4, '0')}`, activeMs: 0, choices });
      }
    }
    const forbidden = getDb()
      .$client.prepare('SELECT source_a, source_b, external_id FROM items WHERE study_id = ?')
      .raw()
      .all(studyId)
      .flat() as string[];
    const history = getSubmissionHistory(a1, { studyId });
    const answers = [
      history,
      ...history.items.map((i) => getJudgeAssignment(a1, i.assignmentId)),
      ...history.items.map((i) => setComment(a1, { assignmentId: i.assignmentId, comment: 'again' })),
    ];
    for (const answer of answers) {
      const text = JSON.stringify(answer);
      for (const s of forbidden) expect(text).not.toContain(s);
      expect(text).not.toMatch(/"(source|sourceA|sourceB|externalId|username|userId|reviewer|judge)"/);
      expect(text).not.toContain('by a2');
    }
    expect(history.items).toHaveLength(forbidden.length / 3);
  });
});

describe('rubric screens', () => {
  // Distinctive strings that must never reach a reviewer or an adjudicator of a rubric study.
  const SECRET = /ZQXSRC|ZQXID|ZQXGRP|ZQXJUDGE/;
  const items: RubricItem[] = mrbenchItems(2, ['Sonnet', 'Expert']).map((it, i) => ({
    ...it,
    id: `ZQXID-${i}`,
    group: `ZQXGRP-${it.group}`,
    reply: { source: `ZQXSRC-${it.reply!.source}`, text: it.reply!.text },
  }));
  let lead: Actor, one: Actor, two: Actor, adj: Actor, studyId: number;

  beforeAll(async () => {
    lead = await makeUser('blindlead', 'lead');
    [one, two, adj] = await Promise.all(['blindone', 'blindtwo', 'blindadj'].map((u) => makeUser(u)));
    studyId = createRubricStudy(lead, { name: 'Blind rubric', items, reviewers: ['blindone', 'blindtwo'], adjudicator: 'blindadj' });
    addRubricJudgeRun(
      lead,
      studyId,
      'ZQXJUDGE-run',
      items.map((it) => ({ item: it.id, labels: { mistake_identification: 'No' }, rationale: 'ZQXJUDGE says no' })),
    );
  });

  it('no view of a reviewer or the adjudicator carries a source, an item id, a group key, a judge verdict or the other reviewer', () => {
    const seen: string[] = [];
    for (const [who, label] of [
      [one, 'Yes'],
      [two, 'No'],
    ] as const) {
      for (;;) {
        const q = getQueue(who, studyId);
        seen.push(JSON.stringify(q));
        if (q.currentId === null) break;
        const view = getAssignmentView(who, q.currentId);
        seen.push(JSON.stringify(view));
        const labels = Object.fromEntries(MRBENCH_V3_CATALOG.map((d) => [d.id, label]));
        seen.push(
          JSON.stringify(
            submitAndQueue(who, { assignmentId: q.currentId, requestId: `blind-${who.id}-${q.currentId}`, activeMs: 1, labels }),
          ),
        );
      }
    }
    const queue = getAdjudicationQueue(adj, studyId);
    seen.push(JSON.stringify(queue));
    expect(queue.total).toBe(items.length);
    for (const i of queue.items) {
      const item = getAdjudicationView(adj, studyId, i.itemId);
      expect(item.kind).toBe('rubric-adjudication');
      seen.push(JSON.stringify(item));
    }
    const all = seen.join('\n');
    expect(all).not.toMatch(SECRET);
    expect(all).not.toMatch(/blindone|blindtwo|BLINDONE|BLINDTWO/);
    // The reply texts themselves do reach them (what they are asked to label).
    expect(all).toContain(JSON.stringify(items[0].reply!.text).slice(1, 40));
  });

  it('one reviewer’s flags and comments reach the study’s leads, never the other reviewer or the adjudicator', () => {
    for (const h of getSubmissionHistory(one, { studyId }).items) {
      setFlag(one, { assignmentId: h.assignmentId, reason: 'ZQXREMARK flag' });
      setComment(one, { assignmentId: h.assignmentId, comment: 'ZQXREMARK comment' });
    }
    const seen: string[] = [JSON.stringify(getQueue(two, studyId)), JSON.stringify(getAdjudicationQueue(adj, studyId))];
    const history = getSubmissionHistory(two, { studyId });
    seen.push(JSON.stringify(history));
    for (const h of history.items) {
      seen.push(JSON.stringify(getAssignmentView(two, h.assignmentId)), JSON.stringify(getMySubmission(two, h.assignmentId)));
    }
    for (const i of getAdjudicationQueue(adj, studyId).items) seen.push(JSON.stringify(getAdjudicationView(adj, studyId, i.itemId)));
    expect(history.items).toHaveLength(items.length);
    expect(seen.join('\n')).not.toContain('ZQXREMARK');
    // The lead's item page names them, beside the reviewer who left them.
    // The adjudicator's number of the item, turned back into the row id the lead's page takes.
    const itemId = rowIdOf(studyId, getAdjudicationQueue(adj, studyId).items[0].itemId);
    const page = getRubricItem(lead, studyId, itemId);
    expect(page.reviewers.find((r) => r.username === 'blindone')!.remarks).toMatchObject({
      flagReason: 'ZQXREMARK flag',
      comment: 'ZQXREMARK comment',
    });
    expect(page.reviewers.find((r) => r.username === 'blindtwo')!.remarks.flagReason).toBeNull();
  });
});

describe('a judge run launched from Concord, seen by annotators and adjudicators', () => {
  // What only the lead may read: the judge's raw text, the run's name, the model and the endpoint.
  const RAW = 'JUDGE-RAW-RATIONALE-7f3a';
  const RUN = 'run-name-9c1d';
  const MODEL = 'judge-model-5e2b';
  let stand: Awaited<ReturnType<typeof startStandIn>>;
  const seen: string[] = [];

  beforeAll(async () => {
    stand = await startStandIn({ says: RAW });
    const lead = await makeUser('jlead', 'lead');
    const [a1, a2, adj] = await Promise.all(['ja1', 'ja2', 'jadj'].map((u) => makeUser(u)));
    const studyId = createStudy(lead, { kind: 'pairwise', name: 'Blind', seed: 3 }).id;
    setStudyCriteria(lead, studyId, [{ id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' }]);
    const items = Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({ id: `it-${i}`, problem: `P${i}`, a: { source: 'src-a', text: `A${i}` }, b: { source: 'src-b', text: `B${i}` } }),
    );
    importItems(lead, studyId, writeTemp(dir, 'blind.jsonl', items.join('\n')), 'concord');
    setStudyMembers(lead, studyId, { usernames: ['ja1', 'ja2'], adjudicator: 'jadj' });
    openStudy(lead, studyId);
    createJudgeEndpoint(await makeUser('jadmin', 'admin'), { name: 'stand-in', baseUrl: stand.url, models: [MODEL] });
    const { runId } = judges.launchJudgeRun(lead, studyId, {
      name: RUN,
      endpoint: 'stand-in',
      model: MODEL,
      template: PAIRWISE_CRITERION_TEMPLATE,
    });
    await runJudge(runId);
    expect(judges.judgeRunStatus(lead, runId).answered).toBe(12);
    expect(judges.unreadableJudgeAnswers(lead, runId)).toEqual([]);
    // a1 and a2 disagree everywhere, so the adjudicator has every item
    let k = 0;
    for (const [who, choice] of [
      [a1, 'r1'],
      [a2, 'tie'],
    ] as const) {
      for (let id = getQueue(who, studyId).currentId; id; id = getQueue(who, studyId).currentId) {
        const a = getJudgeAssignment(who, id);
        seen.push(JSON.stringify(getQueue(who, studyId)), JSON.stringify(a));
        const r = submitJudgment(who, {
          assignmentId: id,
          requestId: `blind-request-${String(++k).padStart(4, '0')}`,
          activeMs: 1,
          choices: Object.fromEntries(a.criteria.map((c) => [c.id, choice])),
        });
        seen.push(JSON.stringify(r));
      }
      seen.push(JSON.stringify(listMyStudies(who)));
      for (const f of [judges.judgeRunStatus, judges.unreadableJudgeAnswers, judges.pauseJudgeRun, judges.cancelJudgeRun])
        expect(codeOf(() => f(who, runId))).toBe('forbidden');
      expect(codeOf(() => judges.listStudyJudgeRuns(who, studyId))).toBe('forbidden');
    }
    const queue = getAdjudicationQueue(adj, studyId);
    seen.push(JSON.stringify(queue), JSON.stringify(listMyStudies(adj)));
    expect(queue.total).toBe(3);
    for (let id = queue.currentItemId; id; id = null) seen.push(JSON.stringify(getAdjudicationItem(adj, studyId, id)));
    expect(codeOf(() => judges.judgeRunStatus(adj, runId))).toBe('forbidden');
  }, 60_000);
  afterAll(() => stand.close());

  it('never shows them its raw answers, its name, its model or its verdicts', () => {
    expect(seen.length).toBeGreaterThan(5);
    for (const text of seen) {
      expect(text).not.toContain(RAW);
      expect(text).not.toContain(RUN);
      expect(text).not.toContain(MODEL);
      expect(text).not.toMatch(/src-a|src-b/);
    }
  });
});

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
