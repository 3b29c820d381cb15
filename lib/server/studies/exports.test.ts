import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '@/test/csv';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { exportFlows } from './exports';
import { importItems } from '../imports/imports';
import { getQueue, submitFlowReview } from '../review/flow-review';
import { createStudy, openStudy, setStudyMembers } from './studies';

/*
 * Verified flows with two reviewers per flow: a flow only one of them has submitted is not verified yet. It is
 * left out and counted, as the ground-truth export does with incomplete items, unless asked for.
 */

useTestDatabase();
const FLOWS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
let lead: Actor, ann1: Actor, ann2: Actor;
let studyId: number;
let n = 0;
const verifyCurrent = (who: Actor) =>
  submitFlowReview(who, {
    assignmentId: getQueue(who, studyId).currentId!,
    requestId: `export-test-${++n}`,
    activeMs: 0,
    decision: { decision: 'verify' },
  });

const jsonl = (lines: Iterable<string>) => [...lines].map((l) => JSON.parse(l) as { id: string; review: Record<string, unknown> });

/** Runs the concord command on the test database. */
function concord(args: string[]) {
  const r = spawnSync(process.execPath, ['lib/cli/bin.mjs', ...args], { env: process.env, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  ann1 = await makeUser('ann1');
  ann2 = await makeUser('ann2');
  studyId = createStudy(lead, { kind: 'flow_review', name: 'Two reviewers', reviewersPerItem: 2, seed: 4 }).id;
  importItems(lead, studyId, FLOWS, 'concord');
  setStudyMembers(lead, studyId, { usernames: ['ann1', 'ann2'] });
  openStudy(lead, studyId);
  // Both reviewers verify their first two flows (the same two: each reviews all six); ann1 also verifies a third.
  for (const who of [ann1, ann2, ann1, ann2, ann1]) verifyCurrent(who);
});

describe('verified flows of a study with two reviewers per flow', () => {
  it('leaves out and counts the flows not every reviewer has submitted', () => {
    const out = exportFlows(lead, studyId, 'flows', 'jsonl');
    const flows = jsonl(out.lines);
    expect(flows).toHaveLength(2);
    expect(flows.every((f) => f.review.complete === true && (f.review.reviewers as string[]).length === 2)).toBe(true);
    expect(out.summary.incomplete).toBe(4);
  });

  it('exports them marked incomplete when asked to', () => {
    const out = exportFlows(lead, studyId, 'flows', 'jsonl', { includeIncomplete: true });
    const flows = jsonl(out.lines);
    expect(flows.map((f) => [f.review.complete, f.review.reviewers])).toEqual([
      [true, ['ann1', 'ann2']],
      [true, ['ann1', 'ann2']],
      [false, ['ann1']],
    ]);
    const csv = parseCsv([...exportFlows(lead, studyId, 'flows', 'csv', { includeIncomplete: true }).lines].join(''));
    expect(csv[0].at(-1)).toBe('complete');
    expect(csv.slice(1).map((r) => r.at(-1))).toEqual(['true', 'true', 'false']);
  });

  it('does the same on the command line, saying on stderr what was left out', () => {
    const left = concord(['export', 'flows', '--study', String(studyId)]);
    expect(left.code).toBe(0);
    expect(left.out.trim().split('\n')).toHaveLength(2);
    expect(left.err).toContain('4 flow(s) not reviewed by every reviewer yet were left out (--include-incomplete exports them).');
    const all = concord(['export', 'flows', '--study', String(studyId), '--format', 'csv', '--include-incomplete']);
    expect(all.code).toBe(0);
    expect(parseCsv(all.out)).toHaveLength(1 + 3);
    expect(all.err).toContain('4 flow(s) not reviewed by every reviewer yet');
  });
});
