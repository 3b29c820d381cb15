import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';
import { setGoldSettings, setItemGold } from './gold';

/*
 * A rubric reply marked gold after the study opened (decision 0041) goes into the pending queue of each reviewer who
 * lacks it, between two dialogues, never inside one; at a gold rate of 0 marking mixes nothing.
 */
const { dir } = useTestDatabase();
let lead: Actor;
beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  for (const u of ['r1', 'r2', 'r3']) await makeUser(u);
});

const DIALOGUES = 10;
/** The study's items file; `gold` adds gold labels to the line of that item. */
function itemsFile(gold?: { id: string; labels: Record<string, string> }) {
  const lines: string[] = [];
  for (let d = 0; d < DIALOGUES; d++)
    for (const t of ['Sonnet', 'Expert', 'GPT4'])
      lines.push(
        JSON.stringify({
          id: `d${d}-${t}`,
          group: `d${d}`,
          history: [{ role: 'student', text: `Answer ${d}` }],
          reply: { source: t, text: `${t} on ${d}` },
          ...(gold?.id === `d${d}-${t}` ? { gold: gold.labels } : {}),
        }),
      );
  return writeTemp(dir, `items-${Math.random()}.jsonl`, `${lines.join('\n')}\n`);
}

type Row = { username: string; itemId: number; group: string | null; state: string };
const queues = (studyId: number) =>
  getDb()
    .$client.prepare(
      `SELECT u.username, a.item_id AS itemId, i.group_key AS "group", a.state
         FROM assignments a JOIN users u ON u.id = a.user_id JOIN items i ON i.id = a.item_id
        WHERE a.study_id = ? ORDER BY u.username, a.queue_position`,
    )
    .all(studyId) as Row[];
const itemId = (studyId: number, ext: string) =>
  getDb().$client.prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, ext) as number;

function makeStudy(name: string, ratePct: number) {
  const id = createStudy(lead, { kind: 'rubric', name, dimensions: 'mrbench-v3', reviewersPerItem: 2, seed: 5 }).id;
  importItems(lead, id, itemsFile(), 'concord');
  setStudyMembers(lead, id, { usernames: ['r1', 'r2', 'r3'] });
  setGoldSettings(lead, id, { ratePct, alertBelowPct: null });
  openStudy(lead, id);
  return id;
}

describe('a rubric reply marked gold after the study opened', () => {
  it('reaches each reviewer who lacks it, between two dialogues', () => {
    const studyId = makeStudy('Late rubric', 20);
    const before = queues(studyId);
    // A reply of the last dialogue: two reviewers hold it (the dialogue's), the third does not.
    const marked = itemId(studyId, `d${DIALOGUES - 1}-GPT4`);
    const lacking = [...new Set(before.map((r) => r.username))].filter((u) => !before.some((r) => r.username === u && r.itemId === marked));
    expect(lacking).toHaveLength(1);
    setItemGold(lead, studyId, { itemId: marked, labels: { mistake_identification: 'Yes' } });
    const after = queues(studyId);
    const theirs = after.filter((r) => r.username === lacking[0]);
    const k = theirs.findIndex((r) => r.itemId === marked);
    expect(k).toBeGreaterThan(0);
    expect(theirs[k].state).toBe('pending');
    // Not inside a dialogue: the replies before and after it belong to different dialogues (or it comes last).
    expect(k === theirs.length - 1 || theirs[k - 1].group !== theirs[k + 1].group).toBe(true);
    expect(theirs.filter((r) => r.itemId !== marked)).toEqual(before.filter((r) => r.username === lacking[0]));
    expect(after.filter((r) => r.username !== lacking[0])).toEqual(before.filter((r) => r.username !== lacking[0]));
  });

  it("reaches them too when the gold labels come with a new import of the study's own file", () => {
    const studyId = makeStudy('Late rubric import', 20);
    const before = queues(studyId);
    const ext = `d${DIALOGUES - 1}-GPT4`;
    const marked = itemId(studyId, ext);
    const lacking = [...new Set(before.map((r) => r.username))].filter((u) => !before.some((r) => r.username === u && r.itemId === marked));
    expect(lacking).toHaveLength(1);
    const report = importItems(lead, studyId, itemsFile({ id: ext, labels: { mistake_identification: 'Yes' } }), 'concord');
    expect(report).toMatchObject({ inserted: 0, unchanged: DIALOGUES * 3 });
    const after = queues(studyId);
    const theirs = after.filter((r) => r.username === lacking[0]);
    expect(theirs.filter((r) => r.itemId === marked)).toEqual([expect.objectContaining({ state: 'pending' })]);
    expect(after.filter((r) => r.username !== lacking[0])).toEqual(before.filter((r) => r.username !== lacking[0]));
  });

  it('mixes nothing at a gold rate of 0', () => {
    const none = makeStudy('Late no rate', 0);
    const before = queues(none);
    setItemGold(lead, none, { itemId: itemId(none, 'd9-GPT4'), labels: { mistake_identification: 'No' } });
    expect(queues(none)).toEqual(before);
  });
});
