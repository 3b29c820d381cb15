import { describe, expect, it } from 'vitest';
import { adjudicatorSwapped, toCanonical, toScreen } from './blinding';
import type { ScreenChoice } from './dto';

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

describe('a judge run launched from Concord, seen by annotators and adjudicators', async () => {
  // Imports here so the display-order tests above stay free of a database.
  const { useTestDatabase, makeUser, writeTemp } = await import('@/test/db');
  const { startStandIn } = await import('@/test/judge-standin');
  const { codeOf } = await import('@/test/errors');
  const { PAIRWISE_CRITERION_TEMPLATE } = await import('@/lib/validation/judge-templates');
  const { createStudy, openStudy, setStudyCriteria, setStudyMembers, listMyStudies } = await import('../studies/studies');
  const { importItems } = await import('../imports/imports');
  const judges = await import('../judges/judges');
  const { runJudge } = await import('../judges/runner');
  const { getQueue } = await import('./flow-review');
  const { getJudgeAssignment, submitJudgment } = await import('./judging');
  const { getAdjudicationItem, getAdjudicationQueue } = await import('./adjudication');
  const { beforeAll, afterAll } = await import('vitest');

  const { dir } = useTestDatabase();
  // What only the lead may read: the judge's raw text, the run's name, the model and the endpoint.
  const RAW = 'JUDGE-RAW-RATIONALE-7f3a';
  const RUN = 'run-name-9c1d';
  const MODEL = 'judge-model-5e2b';
  let stand: Awaited<ReturnType<typeof startStandIn>>;
  const seen: string[] = [];

  beforeAll(async () => {
    stand = await startStandIn({ says: RAW });
    const lead = await makeUser('lead', 'lead');
    const [a1, a2, adj] = await Promise.all(['a1', 'a2', 'adj'].map((u) => makeUser(u)));
    const studyId = createStudy(lead, { kind: 'pairwise', name: 'Blind', seed: 3 }).id;
    setStudyCriteria(lead, studyId, [{ id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' }]);
    const items = Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({ id: `it-${i}`, problem: `P${i}`, a: { source: 'src-a', text: `A${i}` }, b: { source: 'src-b', text: `B${i}` } }),
    );
    importItems(lead, studyId, writeTemp(dir, 'blind.jsonl', items.join('\n')), 'concord');
    setStudyMembers(lead, studyId, { usernames: ['a1', 'a2'], adjudicator: 'adj' });
    openStudy(lead, studyId);
    const { runId } = judges.launchJudgeRun(lead, studyId, { name: RUN, endpoint: stand.url, model: MODEL, template: PAIRWISE_CRITERION_TEMPLATE });
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
        const r = submitJudgment(who, { assignmentId: id, requestId: `blind-request-${String(++k).padStart(4, "0")}`, activeMs: 1, choices: Object.fromEntries(a.criteria.map((c) => [c.id, choice])) });
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
