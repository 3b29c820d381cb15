import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { fleissKappa, itemCountsFromRaters, krippendorffAlpha } from '@/lib/stats';
import { parseCsv } from '@/test/csv';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { agreementReport } from '../analytics/agreement';
import { exportGroundTruth } from '../ground-truth/ground-truth';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';
import { importItems } from './imports';
import { importAnnotations } from './prior-annotations';

/*
 * Any number of raters per item (issue 27, decision 0028): imported prior annotations bring as many raters as the
 * data has, every reader counts them, and the study's plan still bounds the assignments the app makes.
 */
const { dir } = useTestDatabase();
const q = <T = number>(sql: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...a) as T;
const jsonl = (name: string, lines: unknown[]) => writeTemp(dir, name, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);

const pair = (id: string) => ({
  id,
  problem: `What is 4 × 3? (${id})`,
  principles: [],
  history: [{ role: 'student', text: 'Is it 7?' }],
  a: { source: 'model-q', text: 'Count the groups.' },
  b: { source: 'reference', text: 'Add 3 four times.' },
});

const LABELS = ['lose', 'tie', 'win'] as const;
const RATERS = 150;
/** Rater r's label on item `crowd-k`: mostly "win", every fifth rater (shifted by item) otherwise. */
const crowdLabel = (k: number, r: number) => ((r + k) % 5 === 0 ? LABELS[(r + k) % 2] : 'win');

let lead: Actor;
beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  for (const u of ['a1', 'a2', 'a3']) await makeUser(u);
});

describe('a pairwise study with 150 raters per item', () => {
  let studyId: number;
  beforeAll(() => {
    studyId = createStudy(lead, { kind: 'pairwise', name: 'Crowd', seed: 5, reviewersPerItem: 2, groundTruthRule: 'majority' }).id;
    importItems(lead, studyId, jsonl('items.jsonl', [pair('crowd-0'), pair('crowd-1'), pair('crowd-2'), pair('fresh')]), 'concord');
  });

  it('accepts every rater of an item beyond the planned two, in slots after the plan', () => {
    const records = [0, 1, 2].flatMap((k) =>
      Array.from({ length: RATERS }, (_, r) => ({ item: `crowd-${k}`, annotator: `rater${r}`, labels: { overall: crowdLabel(k, r) } })),
    );
    expect(importAnnotations(lead, studyId, jsonl('crowd.jsonl', records), 'concord')).toEqual({
      records: 3 * RATERS,
      inserted: 3 * RATERS,
      unchanged: 0,
    });
    expect(q("SELECT count(*) FROM assignments a JOIN items i ON i.id = a.item_id WHERE i.external_id = 'crowd-0'")).toBe(RATERS);
    expect(q('SELECT max(slot) FROM assignments WHERE study_id = ?', studyId)).toBe(RATERS);
  });

  it('exports every rater of each item and settles it on their majority', () => {
    const csv = parseCsv([...exportGroundTruth(lead, studyId, 'csv').lines].join(''));
    expect(csv[0]).toHaveLength(4 + RATERS + 2);
    expect(csv[0][4 + RATERS - 1]).toBe(`reviewer${RATERS}_label`);
    const rows = [...exportGroundTruth(lead, studyId, 'jsonl').lines].map(
      (l) => JSON.parse(l) as { item: string; label: string; provenance: string; reviewers: string[] },
    );
    expect(rows.map((r) => [r.item, r.label, r.provenance])).toEqual([
      ['crowd-0', 'win', 'majority'],
      ['crowd-1', 'win', 'majority'],
      ['crowd-2', 'win', 'majority'],
    ]);
    expect(rows[1].reviewers).toEqual(Array.from({ length: RATERS }, (_, r) => crowdLabel(1, r)));
    for (const r of rows) expect(csv.find((c) => c[0] === r.item)!.slice(4, 4 + RATERS)).toEqual(r.reviewers);
  });

  it("computes Krippendorff's α over all 150 raters, as lib/stats does on the same labels", () => {
    const report = agreementReport(lead, studyId, { bootstrap: 0 });
    const overall = report.criteria.find((c) => c.criterion === 'overall')!;
    expect(overall.items).toBe(3);
    expect(overall.ratings).toBe(3 * RATERS);
    const raters = Array.from({ length: RATERS }, (_, r) => Int8Array.from([0, 1, 2], (k) => LABELS.indexOf(crowdLabel(k, r))));
    const expected = krippendorffAlpha(itemCountsFromRaters(raters, 3), { metric: 'nominal' });
    expect(expected.value).not.toBeNull();
    expect(overall.krippendorffAlphaNominal.value).toBeCloseTo(expected.value!, 12);
    expect(overall.fleissKappa.value).toBeCloseTo(fleissKappa(itemCountsFromRaters(raters, 3)).value!, 12);
  });

  it('bootstraps the criterion statistics but not 11,175 rater pairs, so the report stays fast', () => {
    const started = performance.now();
    const report = agreementReport(lead, studyId, { bootstrap: 1000 });
    const ms = performance.now() - started;
    console.log(`agreement report, ${RATERS} raters, 1000 replicates: ${ms.toFixed(0)} ms`);
    const overall = report.criteria.find((c) => c.criterion === 'overall')!;
    expect(overall.pairs).toHaveLength((RATERS * (RATERS - 1)) / 2);
    expect(overall.intervals.krippendorffAlphaNominal.method).toBe('bootstrap');
    expect(overall.intervals.krippendorffAlphaNominal.lower).not.toBeNull();
    expect(overall.intervals.fleissKappa.lower).not.toBeNull();
    // Each pair keeps its exact κ; only its interval is left out, with the reason.
    const [first] = overall.pairs;
    expect(first.annotators).toEqual(['rater0', 'rater1']);
    expect(first.intervals.cohenKappa).toEqual({ method: 'bootstrap', lower: null, upper: null, reason: 'not_computed' });
    // Four minutes before the pairs were left out of the bootstrap; a few seconds on a loaded machine now.
    expect(ms).toBeLessThan(20_000);
  }, 60_000);

  it('still plans only the reviewers per item in the app: none for the crowd items, two for the fresh one', () => {
    setStudyMembers(lead, studyId, { usernames: ['a1', 'a2', 'a3'] });
    openStudy(lead, studyId);
    const pending = (item: string) =>
      q(
        "SELECT count(*) FROM assignments a JOIN items i ON i.id = a.item_id WHERE i.external_id = ? AND a.study_id = ? AND a.state = 'pending'",
        item,
        studyId,
      );
    expect([pending('crowd-0'), pending('crowd-1'), pending('crowd-2'), pending('fresh')]).toEqual([0, 0, 0, 2]);
    // The schema holds the plan too: a third in-app (pending) reviewer for an item is refused.
    const fresh = q("SELECT id FROM items WHERE external_id = 'fresh' AND study_id = ?", studyId);
    const user = q("SELECT id FROM users WHERE username = 'rater0'");
    expect(() =>
      getDb()
        .$client.prepare('INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position) VALUES (?, ?, ?, 3, 1)')
        .run(studyId, fresh, user),
    ).toThrow(/exceeds the reviewers planned per item/);
  });
});

describe('a rubric study with 100 raters on an item', () => {
  it('exports all 100 labels of each dimension and decides on all of them', () => {
    const s = createStudy(lead, {
      kind: 'rubric',
      name: 'Rubric crowd',
      dimensions: 'mrbench-v3',
      reviewersPerItem: 1,
      groundTruthRule: 'majority',
    });
    const reply = {
      id: 'r-1',
      history: [
        { role: 'tutor', text: 'What is 3 + 4?' },
        { role: 'student', text: 'It is 8.' },
      ],
      reply: { source: 'Sonnet', text: 'Check the sum again.' },
    };
    importItems(lead, s.id, jsonl('rubric-items.jsonl', [reply]), 'concord');
    // 40 say Yes, then 60 say No: only a reader that sees past the 64th rater finds the majority "No".
    const dims = ['mistake_identification', 'mistake_location', 'providing_guidance', 'actionability'];
    const label = (r: number) => (r < 40 ? 'Yes' : 'No');
    const records = Array.from({ length: 100 }, (_, r) => ({
      item: 'r-1',
      annotator: `rubric${r}`,
      labels: Object.fromEntries(dims.map((d) => [d, label(r)])),
    }));
    expect(importAnnotations(lead, s.id, jsonl('rubric-crowd.jsonl', records), 'concord').inserted).toBe(100);
    const rows = [...exportGroundTruth(lead, s.id, 'jsonl').lines].map(
      (l) => JSON.parse(l) as { label: string; provenance: string; reviewers: string[] },
    );
    expect(rows).toHaveLength(4);
    for (const r of rows) {
      expect([r.label, r.provenance]).toEqual(['No', 'majority']);
      expect(r.reviewers).toEqual(Array.from({ length: 100 }, (_, i) => label(i)));
    }
    const header = parseCsv([...exportGroundTruth(lead, s.id, 'csv').lines].join(''))[0];
    expect(header.filter((h) => /^reviewer\d+_label$/.test(h))).toHaveLength(100);
  });
});
