import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { activeMean, drawLabelledItems, labellingProbabilities } from '@/lib/stats';
import type { RubricCatalog } from '@/lib/validation/rubric';
import { codeOf } from '@/test/analytics-fixtures';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import type { Actor } from '../actor';
import { getQueue } from '../review/flow-review';
import { getRubricAssignment, submitRubric } from '../review/rubric';
import { certifyReport } from './certify';
import { leaderboardReport } from './leaderboard';
import { openActiveQueue } from './review-queue-active';
import { reportCsv } from '@/lib/io/report-csv';

/*
 * Active labelling on a rubric study, on a real SQLite file (decision 0045): 20 replies people labelled before ("Yes",
 * as the judge said) and 100 only the judge labelled, in three samples. Every sample says "Yes" except the second
 * one on new-0 … new-19, which says "No": p = ⅔, u = min(p, 1 − p) = ⅓ there, 0 elsewhere. People will find those
 * replies "No", every tenth of the rest "To some extent" (desired only when folded leniently), the rest "Yes".
 */
type L = 'No' | 'To some extent' | 'Yes';
const N_NEW = 100;
const UNSURE = 20;
const truthOf = (k: number): L => (k < UNSURE ? 'No' : k % 10 === 0 ? 'To some extent' : 'Yes');
const CATALOG: RubricCatalog = [
  { id: 'mi', name: 'Notices the mistake', labels: ['No', 'To some extent', 'Yes'], desired: 'Yes', lenient: { 'To some extent': 'Yes' } },
];

useTestDatabase();
let lead: Actor, r1: Actor, r2: Actor;
let studyId: number;
const sql = (q: string, ...a: unknown[]) =>
  getDb()
    .$client.prepare(q)
    .raw()
    .all(...a) as unknown[][];

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  r1 = await makeUser('r1');
  r2 = await makeUser('r2');
  const calIds = Array.from({ length: 20 }, (_, k) => `cal-${k}`);
  const newIds = Array.from({ length: N_NEW }, (_, k) => `new-${k}`);
  const all = [...calIds, ...newIds];
  studyId = buildRubricStudy(lead, {
    name: 'Rubric active queue',
    catalog: CATALOG,
    reviewersPerItem: 1,
    items: all.map((id) => ({ id, source: 'A' })),
    annotations: calIds.map((item) => ({ item, annotator: 'expert', labels: { mi: 'Yes' } })),
    judges: [
      {
        name: 'llm',
        lines: [1, 2, 3].flatMap((sample) =>
          all.map((item, k) => ({ item, sample, labels: { mi: sample === 2 && k >= 20 && k - 20 < UNSURE ? 'No' : 'Yes' } })),
        ),
      },
      { name: 'once', lines: all.map((item) => ({ item, labels: { mi: 'Yes' } })) },
    ],
  });
});

/** Labels everything in the person's queue as the truth says. */
function reviewAll(actor: Actor) {
  let k = 0;
  for (let id = getQueue(actor, studyId).currentId; id !== null; id = getQueue(actor, studyId).currentId) {
    const a = getRubricAssignment(actor, id);
    const ext = sql(
      'SELECT i.external_id FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.id = ?',
      a.assignmentId,
    )[0][0] as string;
    submitRubric(actor, {
      assignmentId: a.assignmentId,
      requestId: `rubric-active-${actor.id}-${k++}`,
      activeMs: 0,
      labels: { mi: truthOf(Number(ext.slice(4))) },
    });
  }
}

describe('active labelling on a rubric study', () => {
  const u = Array.from({ length: N_NEW }, (_, k) => (k < UNSURE ? 1 / 3 : 0));
  const pi = labellingProbabilities(u, 0.2, 0.5);
  let seed: number;
  let xiNew: number[];

  it('a study without a draw names no estimator: PPI++ shares and the confidence sequence, as before', () => {
    const cell = leaderboardReport(lead, studyId, { bootstrap: 0 }, 'rubric').corrected[0].cells[0];
    expect(cell).not.toHaveProperty('estimator');
    expect(cell).not.toHaveProperty('active');
    expect(certifyReport(lead, studyId, { judge: 'llm', target: 0.5 }, 'rubric')).not.toHaveProperty('estimator');
  });

  it('refuses a source a rubric run cannot give', () => {
    expect(codeOf(() => openActiveQueue(lead, studyId, { judge: 'llm', source: 'orders', usernames: ['r1'] }))).toBe('invalid');
    expect(codeOf(() => openActiveQueue(lead, studyId, { judge: 'once', source: 'samples', usernames: ['r1'] }))).toBe('invalid');
    expect(codeOf(() => openActiveQueue(lead, studyId, { judge: 'llm', criterion: 'nope', usernames: ['r1'] }))).toBe('invalid');
    expect(sql('SELECT count(*) FROM active_draws')[0][0]).toBe(0);
  });

  it("draws the dimension's unreviewed replies with π from the spread of the samples, stores the draw and queues them", () => {
    // The samples are a rubric study's first source: no source asked.
    const q = openActiveQueue(lead, studyId, { judge: 'llm', budget: 0.2, tau: 0.5, usernames: ['r1', 'r2'] });
    const runId = sql("SELECT id FROM judge_runs WHERE study_id = ? AND name = 'llm'", studyId)[0][0] as number;
    seed = ((4242 ^ runId) >>> 0) as number;
    xiNew = drawLabelledItems(pi, seed);
    expect(q).toMatchObject({
      judge: 'llm',
      criterion: 'mi',
      source: 'samples',
      secondJudge: null,
      budget: 0.2,
      tau: 0.5,
      seed,
      pool: N_NEW,
    });
    expect(q.expectedLabels).toBeCloseTo(20, 9);
    const drawnIds = xiNew.flatMap((x, k) => (x ? [`new-${k}`] : []));
    expect(q.drawn).toBe(drawnIds.length);
    const stored = sql(
      `SELECT i.external_id, d.pi, d.drawn, a.criterion FROM active_draw_items d JOIN active_draws a ON a.id = d.draw_id
       JOIN items i ON i.id = d.item_id ORDER BY i.position`,
    ) as [string, number, number, string][];
    expect(stored.map((r) => r[0])).toEqual(Array.from({ length: N_NEW }, (_, k) => `new-${k}`));
    expect(stored.map((r) => r[1])).toEqual(pi);
    expect(stored.map((r) => r[2])).toEqual(xiNew);
    expect(new Set(stored.map((r) => r[3]))).toEqual(new Set(['mi']));
    const queued = sql(
      `SELECT i.external_id FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.study_id = ? AND a.user_id IN (?, ?) ORDER BY i.position`,
      studyId,
      r1.id,
      r2.id,
    ).map((r) => r[0]);
    expect(queued).toEqual(drawnIds);
  });

  /** lib/stats' active estimate of the mean of `value` on the same design: cal items with π = 1, the pool's stored π. */
  function expected(yhatNew: number[], value: (k: number) => number, labelled: boolean) {
    const xi = [...Array(20).fill(1), ...xiNew.map((x) => (labelled ? x : 0))];
    const y = [...Array(20).fill(1), ...Array.from({ length: N_NEW }, (_, k) => (xi[20 + k] ? value(k) : null))];
    return activeMean({
      yhat: [...Array(20).fill(1), ...yhatNew],
      budget: 0.2,
      tau: 0.5,
      xiActive: xi,
      xiUniform: xi.map(() => 0),
      y,
      pi: [...Array(20).fill(1), ...pi],
    }).active;
  }
  const desired = (k: number) => (truthOf(k) === 'Yes' ? 1 : 0);
  const desiredLenient = (k: number) => (truthOf(k) === 'No' ? 0 : 1);

  it('the corrected shares say labels are pending until the drawn replies are labelled', () => {
    const cells = leaderboardReport(lead, studyId, { bootstrap: 0 }, 'rubric').corrected[0].cells;
    const drawn = xiNew.reduce((a, b) => a + b, 0);
    expect(cells.map((c) => [c.lenient, c.estimator, c.caution])).toEqual([
      [false, 'active_ipw', 'labels_pending'],
      [true, 'active_ipw', 'labels_pending'],
    ]);
    expect(cells[0].active).toEqual({
      pool: N_NEW,
      drawn,
      drawnLabelled: 0,
      pending: drawn,
      labelledBefore: 20,
      budget: 0.2,
      tau: 0.5,
      source: 'samples',
    });
    expect(cells[0].corrected.value).toBeCloseTo(expected(Array(N_NEW).fill(1), desired, false).estimate.value!, 12);
  });

  it('weights each drawn label by 1/π once people have labelled them: the strict and lenient shares of activeMean', () => {
    reviewAll(r1);
    reviewAll(r2);
    const cells = leaderboardReport(lead, studyId, { bootstrap: 0 }, 'rubric').corrected[0].cells;
    for (const [cell, value] of [
      [cells[0], desired],
      [cells[1], desiredLenient],
    ] as const) {
      const e = expected(Array(N_NEW).fill(1), value, true);
      expect(cell).toMatchObject({ model: 'A', criterion: 'mi', estimator: 'active_ipw', caution: null });
      expect(cell.active!.pending).toBe(0);
      expect(cell.corrected.value).toBeCloseTo(e.estimate.value!, 12);
      expect(cell.intervals.corrected.lower).toBeCloseTo(e.ci.value![0], 12);
      expect(cell.intervals.corrected.upper).toBeCloseTo(e.ci.value![1], 12);
      expect(cell.humanOnly).toEqual({ value: null, reason: 'not_applicable' });
      expect(cell.judgeOnly.value).toBe(1);
    }
    // The truth over the study is (20 + 72)/120 ≈ 0.77 strictly; the judge alone says 100 %.
    expect(Math.abs(cells[0].corrected.value! - 92 / 120)).toBeLessThan(0.15);
  });

  it("certifies on the weighted estimate of the judge's agreement, the samples' consistency 1 − u as the prediction", () => {
    const e = expected(
      u.map((x) => 1 - x),
      desired,
      true,
    );
    const r = certifyReport(lead, studyId, { judge: 'llm', target: 0.5 }, 'rubric');
    expect(r.estimator).toBe('active_ipw');
    expect(r.active).toMatchObject({ pool: N_NEW, pending: 0, labelledBefore: 20, source: 'samples' });
    expect(r.active!.alignmentRate.value).toBeCloseTo(e.estimate.value!, 12);
    expect(r.active!.interval.lower).toBeCloseTo(e.ci.value![0], 12);
    expect(r.active!.interval.upper).toBeCloseTo(e.ci.value![1], 12);
    const decision = e.ci.value![0] >= 0.5 ? 'certified' : e.ci.value![1] < 0.5 ? 'refuted' : 'keep_labelling';
    expect(r.decision).toBe(decision);
  });

  it('the CSV downloads say which estimator each row used and on how many labels, as the JSON does', () => {
    // The first data row by header name (no cell here holds a comma or a quote).
    const split = (line: string) =>
      line
        .trim()
        .split(',')
        .map((c) => c.replace(/^"|"$/g, ''));
    const row = (lines: string[]) => Object.fromEntries(split(lines[0]).map((h, c) => [h, split(lines[1])[c]]));
    const lb = leaderboardReport(lead, studyId, { bootstrap: 0 }, 'rubric');
    const cell = lb.corrected[0].cells[0];
    expect(row(reportCsv('rubric-leaderboard', 'corrected', lb))).toMatchObject({
      estimator: 'active_ipw',
      estimator_labels: String(cell.active!.drawnLabelled + 20),
      labels_pending: '0',
    });
    const r = certifyReport(lead, studyId, { judge: 'llm', target: 0.5 }, 'rubric');
    expect(row(reportCsv('rubric-certify', 'decision', r))).toMatchObject({
      estimator: 'active_ipw',
      estimator_labels: String(r.active!.drawnLabelled + 20),
      labels_pending: '0',
      active_lower: String(r.active!.interval.lower),
    });
  });
});
