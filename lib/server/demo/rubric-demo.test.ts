import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { publicDataPath } from '@/lib/io/public-data';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import { makeUser, useTestDatabase } from '@/test/db';
import { biasReport } from '../analytics/bias';
import { certifyReport } from '../analytics/certify';
import { leaderboardReport } from '../analytics/leaderboard';
import { cliActor } from '../system/system';
import { DEMO_CHANGE_RATE, DEMO_SLICE_DIALOGUES, demoLabel, RUBRIC_DEMO_STUDIES } from './rubric-demo';

// The rubric demo from the public data: MRBench V3 with gold as a prior reviewer and seed-made labels on a slice.
useTestDatabase();
const all = <T>(sql: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .all(...a) as T[];
const one = (sql: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(sql)
    .pluck()
    .get(...a) as number;

const logged: string[] = [];
beforeAll(async () => {
  for (const u of ['ann1', 'ann2', 'ann3', 'ann4', 'adj']) await makeUser(u);
  // The studies of the public data (not the hand-written stand-in), as the seed makes them when the data is here.
  for (const study of RUBRIC_DEMO_STUDIES.filter((s) => !s.standsInFor)) {
    study.make(
      cliActor(),
      (m) => logged.push(m),
      (m) => logged.push(`SKIPPED ${m}`),
    );
  }
}, 120_000);

type Label = { username: string; item: string; dimension: number; label: number; grp: string };
const labels = (studyId: number) =>
  all<Label>(
    `SELECT u.username, i.external_id AS item, i.group_key AS grp, l.dimension, l.label
       FROM rubric_labels l JOIN annotations an ON an.id = l.annotation_id JOIN assignments a ON a.id = an.assignment_id
       JOIN users u ON u.id = a.user_id JOIN items i ON i.id = a.item_id WHERE a.study_id = ?`,
    studyId,
  );

describe('the MRBench V3 demo study', () => {
  const studyId = () => one("SELECT id FROM studies WHERE name = 'MRBench V3 dev set'");

  it('holds every reply of the dev set, each with gold as a prior reviewer', () => {
    const raw = JSON.parse(fs.readFileSync(publicDataPath('mrbench', 'mrbench_v3_devset.json'), 'utf8')) as { tutor_responses: object }[];
    const replies = raw.reduce((n, r) => n + Object.keys(r.tutor_responses).length, 0);
    expect(one('SELECT count(*) FROM items WHERE study_id = ?', studyId())).toBe(replies);
    expect(
      one(
        "SELECT count(*) FROM assignments a JOIN users u ON u.id = a.user_id WHERE a.study_id = ? AND u.username = 'mrbench-gold' AND a.state = 'submitted'",
        studyId(),
      ),
    ).toBe(replies);
    // Three reviewers per reply: gold, ann1 and ann2.
    expect(all('SELECT DISTINCT count(*) AS n FROM assignments WHERE study_id = ? GROUP BY item_id', studyId())).toEqual([{ n: 3 }]);
  });

  it("gives ann1 and ann2 the slice's replies as submissions derived from gold, with some disagreement", () => {
    const rows = labels(studyId());
    const gold = new Map(rows.filter((r) => r.username === 'mrbench-gold').map((r) => [`${r.item}/${r.dimension}`, r.label]));
    const slice = new Set(rows.filter((r) => r.username === 'ann1').map((r) => r.grp));
    expect(slice.size).toBe(DEMO_SLICE_DIALOGUES);
    let changed = 0;
    let total = 0;
    let disagree = 0;
    const ann2 = new Map(rows.filter((r) => r.username === 'ann2').map((r) => [`${r.item}/${r.dimension}`, r.label]));
    for (const r of rows.filter((x) => x.username === 'ann1' || x.username === 'ann2')) {
      const g = gold.get(`${r.item}/${r.dimension}`)!;
      expect(r.label).toBe(demoLabel(r.username, r.item, MRBENCH_V3_CATALOG[r.dimension].id, g, 3));
      total++;
      if (r.label !== g) changed++;
      if (r.username === 'ann1' && ann2.get(`${r.item}/${r.dimension}`) !== r.label) disagree++;
    }
    expect(total).toBeGreaterThan(0);
    // About DEMO_CHANGE_RATE of the labels differ from gold, and ann1 and ann2 disagree on some.
    expect(changed / total).toBeGreaterThan(DEMO_CHANGE_RATE / 2);
    expect(changed / total).toBeLessThan(DEMO_CHANGE_RATE * 1.5);
    expect(disagree).toBeGreaterThan(0);
    // Their submissions are real submitted assignments; the rest of their queues is pending.
    const states = all<{ username: string; state: string; n: number }>(
      `SELECT u.username, a.state, count(*) AS n FROM assignments a JOIN users u ON u.id = a.user_id
        WHERE a.study_id = ? AND u.username IN ('ann1', 'ann2') GROUP BY u.username, a.state ORDER BY 1, 2`,
      studyId(),
    );
    const submitted = states.filter((s) => s.state === 'submitted').map((s) => s.n);
    expect(submitted).toEqual([total / 8, total / 8]);
  });

  it("has MRBench V1's labels of the shared replies as the run mrbench-v1, which the study can certify and check for bias", () => {
    const runId = one("SELECT id FROM judge_runs WHERE study_id = ? AND name = 'mrbench-v1' AND state = 'done'", studyId());
    // 1,464 replies the two releases share word for word, four dimensions each (lib/io/adapters/mrbench.test.ts)
    expect(one('SELECT count(DISTINCT item_id) FROM rubric_judge_labels WHERE run_id = ?', runId)).toBe(1464);
    expect(logged.find((l) => l.includes('mrbench-v1:'))).toMatch(/on the 1464 replies V1 shares word for word/);
    const lead = cliActor();
    const certify = certifyReport(lead, studyId(), { judge: 'mrbench-v1', criterion: 'mistake_identification', target: 0.8 }, 'rubric');
    // Ground truth is settled on the slice only (three reviewers a reply; an item counts once every dimension is
    // settled): the card says to keep labelling, with an estimate of how many more replies it needs.
    expect(certify.n).toBeGreaterThan(10);
    expect(certify.agree).toBeLessThanOrEqual(certify.n);
    expect(certify.decision).toBe('keep_labelling');
    expect(certify.itemsNeeded.value).toBeGreaterThan(0);
    // The corrected shares rest on a handful of settled replies per tutor: each says so, and where every label and
    // verdict agree the zero-width interval is flagged rather than shown as certainty.
    const corrected = leaderboardReport(lead, studyId(), {}, 'rubric').corrected.find((r) => r.judge === 'mrbench-v1')!.cells;
    const shown = corrected.filter((c) => c.corrected.value !== null);
    expect(shown.length).toBeGreaterThan(0);
    for (const c of shown) expect(c.caution, `${c.model} ${c.criterion}`).toMatch(/^(zero_width_interval|few_labelled_items)$/);
    expect(shown.some((c) => c.caution === 'zero_width_interval')).toBe(true);
    const bias = biasReport(lead, studyId(), 'rubric-bias', {});
    expect(bias.leniency.filter((l) => l.judge === 'mrbench-v1')).toHaveLength(4);
  });

  it('says how many AITutor-EvalKit replies matched an MRBench V3 item', () => {
    const lines = logged.filter((l) => l.includes('AITutor-EvalKit') && l.includes('match'));
    expect(lines).toHaveLength(3);
    // The sample's dialogues are not those of the dev set (lib/io/adapters/aitutor-evalkit.test.ts): none match.
    for (const l of lines) expect(l).toMatch(/: 0 of 85 judged replies match/);
    expect(one("SELECT count(*) FROM judge_runs WHERE study_id = ? AND name <> 'mrbench-v1'", studyId())).toBe(0);
  });
});

describe('the AITutor-EvalKit demo study', () => {
  it('has the 85 sample replies and its three judges', () => {
    const id = one("SELECT id FROM studies WHERE name = 'AITutor-EvalKit sample'");
    expect(one('SELECT count(*) FROM items WHERE study_id = ?', id)).toBe(85);
    expect(
      all<{ name: string }>("SELECT name FROM judge_runs WHERE study_id = ? AND state = 'done' ORDER BY name", id).map((r) => r.name),
    ).toEqual(['aitutor-evalkit-auto', 'gpt5', 'prometheus-eval/prometheus-7b-v2.0']);
  });
});
