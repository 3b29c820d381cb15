import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { nextPending } from '@/db/queries/assignments';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { importAnnotations } from '../imports/prior-annotations';
import { createStudy, openStudy, setStudyMembers } from './studies';

// Opening a rubric study: every item gets its reviewers (prior ones counted), and each reviewer's queue holds a
// dialogue's replies one after another, in an order of their own stored in queue_position.
const { dir } = useTestDatabase();
const rows = <T>(sql: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .all(...a) as T[];

let lead: Actor;
const people: Record<string, Actor> = {};
beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  for (const u of ['r1', 'r2', 'r3']) people[u] = await makeUser(u);
});

const DIALOGUES = 12;
const TUTORS = ['Sonnet', 'Expert', 'GPT4', 'Phi3', 'Mistral'];

function itemsFile() {
  const lines: string[] = [];
  for (let d = 0; d < DIALOGUES; d++) {
    for (const t of TUTORS.slice(0, 2 + (d % 4))) {
      lines.push(
        JSON.stringify({
          id: `d${d}-${t}`,
          group: `d${d}`,
          history: [{ role: 'student', text: `Answer ${d}` }],
          reply: { source: t, text: `${t} on ${d}` },
        }),
      );
    }
  }
  lines.push(JSON.stringify({ id: 'whole-1', history: [{ role: 'tutor', text: 'A whole dialogue' }] }));
  lines.push(JSON.stringify({ id: 'whole-2', history: [{ role: 'tutor', text: 'Another whole dialogue' }] }));
  return writeTemp(dir, `items-${Math.random()}.jsonl`, `${lines.join('\n')}\n`);
}

type Row = { username: string; externalId: string; group: string | null; position: number; slot: number; state: string };
const queueRows = (studyId: number) =>
  rows<Row>(
    `SELECT u.username, i.external_id AS externalId, i.group_key AS "group", a.queue_position AS position, a.slot, a.state
       FROM assignments a JOIN users u ON u.id = a.user_id JOIN items i ON i.id = a.item_id
      WHERE a.study_id = ? ORDER BY u.username, a.queue_position`,
    studyId,
  );

function expectGroupsConsecutive(queue: Row[]) {
  const closed = new Set<string>();
  queue.forEach((r, i) => {
    const g = r.group ?? `solo:${r.externalId}`;
    expect(closed.has(g), `${r.username}: group ${g} comes back at position ${r.position}`).toBe(false);
    if ((queue[i + 1]?.group ?? `solo:${queue[i + 1]?.externalId}`) !== g) closed.add(g);
  });
}

describe('opening a rubric study', () => {
  it('plans the missing slots around prior annotations, groups consecutive, each reviewer in an order of their own', () => {
    const s = createStudy(lead, { kind: 'rubric', name: 'Open me', dimensions: 'mrbench-v3', reviewersPerItem: 3, seed: 77 });
    importItems(lead, s.id, itemsFile(), 'concord');
    // A prior reviewer on every reply of the first three dialogues.
    const prior = [0, 1, 2].flatMap((d) =>
      TUTORS.slice(0, 2 + (d % 4)).map((t) =>
        JSON.stringify({ item: `d${d}-${t}`, annotator: 'gold', labels: { mistake_identification: 'Yes' } }),
      ),
    );
    importAnnotations(lead, s.id, writeTemp(dir, 'prior.jsonl', `${prior.join('\n')}\n`), 'concord');
    setStudyMembers(lead, s.id, { usernames: ['r1', 'r2', 'r3'] });
    openStudy(lead, s.id);

    const all = queueRows(s.id);
    const byItem = new Map<string, Row[]>();
    for (const r of all) byItem.set(r.externalId, [...(byItem.get(r.externalId) ?? []), r]);
    for (const [id, rs] of byItem) {
      expect(rs, id).toHaveLength(3);
      expect(new Set(rs.map((r) => r.username)).size, id).toBe(3);
      expect(rs.map((r) => r.slot).sort(), id).toEqual([1, 2, 3]);
    }
    for (const u of ['r1', 'r2', 'r3']) {
      const mine = all.filter((r) => r.username === u);
      expect(mine.map((r) => r.position)).toEqual(mine.map((_, i) => i + 1));
      expectGroupsConsecutive(mine);
    }
    // With three people and three slots (two where gold is), the order is each one's own.
    const order = (u: string) => all.filter((r) => r.username === u).map((r) => r.externalId);
    expect(order('r1')).not.toEqual(order('r2'));
    expect(order('r2')).not.toEqual(order('r3'));
    // The queue serves in that stored order.
    const pending = nextPending(getDb(), s.id, people.r1.id, 1000);
    const ids = rows<{ id: number; position: number }>(
      'SELECT id, queue_position AS position FROM assignments WHERE study_id = ? AND user_id = ? ORDER BY queue_position',
      s.id,
      people.r1.id,
    ).map((r) => r.id);
    expect(pending).toEqual(ids);
  });

  it('draws the same plan again from the same seed', () => {
    const plans = [1, 2].map(() => {
      const s = createStudy(lead, { kind: 'rubric', name: 'Seeded', dimensions: 'ok-reject', seed: 5 });
      importItems(lead, s.id, itemsFile(), 'concord');
      setStudyMembers(lead, s.id, { usernames: ['r1', 'r2', 'r3'] });
      openStudy(lead, s.id);
      return queueRows(s.id).map(({ username, externalId, position, slot }) => ({ username, externalId, position, slot }));
    });
    expect(plans[0]).toEqual(plans[1]);
    expect(plans[0].length).toBeGreaterThan(0);
  });

  it('deals whole dialogues to fixed sets of reviewers', async () => {
    await makeUser('r4');
    const s = createStudy(lead, { kind: 'rubric', name: 'Sets', dimensions: 'ok-reject', seed: 9 });
    importItems(lead, s.id, itemsFile(), 'concord');
    setStudyMembers(lead, s.id, { usernames: ['r1', 'r2', 'r3', 'r4'], mode: 'fixed_sets' });
    openStudy(lead, s.id);
    const all = queueRows(s.id);
    const setOf = (u: string) => (u === 'r1' || u === 'r2' ? 1 : 2);
    const groups = new Map<string, Set<number>>();
    for (const r of all) if (r.group) groups.set(r.group, (groups.get(r.group) ?? new Set()).add(setOf(r.username)));
    expect(groups.size).toBe(DIALOGUES);
    for (const sets of groups.values()) expect(sets.size).toBe(1);
    for (const u of ['r1', 'r2', 'r3', 'r4']) expectGroupsConsecutive(all.filter((r) => r.username === u));
  });

  it('refuses to open when the chosen people cannot fill an item, and opens nothing', () => {
    const s = createStudy(lead, { kind: 'rubric', name: 'Too few', dimensions: 'ok-reject', reviewersPerItem: 3 });
    importItems(lead, s.id, itemsFile(), 'concord');
    setStudyMembers(lead, s.id, { usernames: ['r1', 'r2'] });
    expect(() => openStudy(lead, s.id)).toThrow(/need 3 more reviewer\(s\), but 2 people are chosen/);
    expect(queueRows(s.id)).toEqual([]);
    expect(rows<{ status: string }>('SELECT status FROM studies WHERE id = ?', s.id)[0].status).toBe('draft');
  });
});
