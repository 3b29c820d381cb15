import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { codeOf } from '@/test/errors';
import { startStandIn } from '@/test/judge-standin';
import { PAIRWISE_CRITERION_TEMPLATE } from '@/lib/validation/judge-templates';
import { createJudgeEndpoint } from '../judges/endpoints';
import * as judges from '../judges/judges';
import { runJudge } from '../judges/runner';
import { importItems } from '../imports/imports';
import { createStudy, listMyStudies, openStudy, setStudyCriteria, setStudyMembers } from '../studies/studies';
import { getAdjudicationItem, getAdjudicationQueue } from './adjudication';
import { getQueue } from './flow-review';
import { getJudgeAssignment, submitJudgment } from './judging';

/*
 * Blinding of a judge run launched from Concord: annotators and adjudicators never see its answers, name or model.
 */

// One database for the file: the describe below makes its accounts and study in it.
const { dir } = useTestDatabase();

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
