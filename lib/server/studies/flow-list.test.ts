import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { getFlowAssignment, getQueue, submitFlowReview } from '../review/flow-review';
import { FLOW_LIST_PAGE_SIZE, listFlowDecisions } from './flow-report';
import { createStudy, openStudy, setStudyMembers } from './studies';

// The lead's flow list pages its items before it reads their reviews when no filter is on the reviews; with one it
// groups every item. Both must show the same rows, counts and order as the tables hold.

const { dir } = useTestDatabase();
const KMP = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'flows.jsonl');
const ITEMS = 2 * FLOW_LIST_PAGE_SIZE + 17;

let lead: Actor, ann: Actor, ben: Actor;
let flowsFiles = 0;
let studyId: number;

/**
 * `n` flows, the demo's examples under new external ids in a shuffled order, so the list's order is not theirs; in the
 * test database's folder, removed with it.
 */
function flowsFile(n: number): string {
  const base = fs.readFileSync(KMP, 'utf8').trim().split('\n');
  const lines = Array.from({ length: n }, (_, i) => ({
    ...JSON.parse(base[i % base.length]),
    id: `list-${String((i * 37) % n).padStart(4, '0')}`,
  }));
  const file = path.join(dir, `flows-${++flowsFiles}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

function submit(who: Actor, n: number, decision: 'verify' | 'discard') {
  for (let k = 0; k < n; k++) {
    const id = getQueue(who, studyId).currentId!;
    getFlowAssignment(who, id);
    const body = decision === 'verify' ? { decision } : { decision, reasons: ['incorrect_math'] };
    submitFlowReview(who, { assignmentId: id, requestId: `list-${who.username}-${k}`, activeMs: 1000, decision: body });
  }
}

type Row = { itemId: number; externalId: string; stepCount: number | null; reviewers: string[]; decisions: string[]; state: string };

/** The list as the tables hold it, read here without the list's query: every item in position order with its reviews. */
function expected(filter: (row: Row) => boolean = () => true): Row[] {
  const db = getDb().$client;
  const items = db
    .prepare('SELECT id, external_id AS externalId, step_count AS stepCount FROM items WHERE study_id = ? ORDER BY position')
    .all(studyId) as {
    id: number;
    externalId: string;
    stepCount: number | null;
  }[];
  const reviews = db.prepare(
    `SELECT u.username, a.state, (SELECT an.decision FROM annotations an WHERE an.assignment_id = a.id ORDER BY an.revision DESC LIMIT 1) AS decision
       FROM assignments a JOIN users u ON u.id = a.user_id WHERE a.item_id = ?`,
  );
  return items
    .map((it) => {
      const rs = reviews.all(it.id) as { username: string; state: string; decision: string | null }[];
      const done = rs.length > 0 && rs.every((r) => r.state === 'submitted');
      return {
        itemId: it.id,
        externalId: it.externalId,
        stepCount: it.stepCount,
        reviewers: rs.map((r) => r.username).sort(),
        decisions: rs.map((r) => (r.state === 'submitted' ? r.decision! : 'pending')).sort(),
        state: done ? 'done' : 'pending',
      };
    })
    .filter(filter);
}

/** Every page of the list, its reviewers and decisions sorted (the list does not promise their order within a row). */
function allPages(input: Record<string, string>) {
  const first = listFlowDecisions(lead, studyId, input);
  const rows = [];
  for (let page = 1; (page - 1) * FLOW_LIST_PAGE_SIZE < Math.max(first.total, 1); page++) {
    const p = listFlowDecisions(lead, studyId, { ...input, page: String(page) });
    expect(p.total).toBe(first.total);
    expect(p.rows.length).toBe(Math.min(FLOW_LIST_PAGE_SIZE, first.total - (page - 1) * FLOW_LIST_PAGE_SIZE));
    rows.push(...p.rows.map((r) => ({ ...r, reviewers: [...r.reviewers].sort(), decisions: [...r.decisions].sort() })));
  }
  return { total: first.total, rows };
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  ann = await makeUser('ann');
  ben = await makeUser('ben');
  // Another study's items with the same ids, imported before: none of them may appear in this study's list.
  const other = createStudy(lead, { kind: 'flow_review', name: 'Other', reviewersPerItem: 1, seed: 6 }).id;
  importItems(lead, other, flowsFile(ITEMS), 'concord');
  studyId = createStudy(lead, { kind: 'flow_review', name: 'List', reviewersPerItem: 1, seed: 5 }).id;
  importItems(lead, studyId, flowsFile(ITEMS), 'concord');
  setStudyMembers(lead, studyId, { usernames: ['ann', 'ben'] });
  openStudy(lead, studyId);
  submit(ann, 40, 'verify');
  submit(ben, 25, 'discard');
});

describe("the lead's flow list", () => {
  it('without a filter: every item once, in position order, with its reviews, over three pages', () => {
    const want = expected();
    expect(want).toHaveLength(ITEMS);
    expect(allPages({})).toEqual({ total: ITEMS, rows: want });
  });

  it('with text: the matching items only, counted and paged the same way', () => {
    const want = expected((r) => r.externalId.includes('-00'));
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(ITEMS);
    expect(allPages({ search: '-00' })).toEqual({ total: want.length, rows: want });
  });

  it('with a filter on the reviews (decision, reviewer, pending): the same rows as the tables give', () => {
    expect(allPages({ decision: 'discard' }).rows).toEqual(expected((r) => r.decisions.includes('discard')));
    expect(allPages({ reviewer: 'ann' }).rows).toEqual(expected((r) => r.reviewers.includes('ann')));
    expect(allPages({ decision: 'pending' }).rows).toEqual(expected((r) => r.state === 'pending'));
  });
});
