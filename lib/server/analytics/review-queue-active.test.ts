import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { activeMean, drawLabelledItems, labellingProbabilities } from '@/lib/stats';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { buildStudy, codeOf } from '@/test/analytics-fixtures';
import type { Actor } from '../actor';
import { importJudge } from '../imports/judge-import';
import { getJudgeAssignment, submitJudgment } from '../review/judging';
import { getQueue } from '../review/flow-review';
import { openStudy } from '../studies/studies';
import { certifyReport } from './certify';
import { leaderboardReport } from './leaderboard';
import { openActiveQueue } from './review-queue-active';
import { reportCsv } from '@/lib/io/report-csv';
import { REPORT_TEXT } from '@/lib/cli/report-text';

/*
 * Active labelling on a real SQLite file: 20 items people labelled before (the judge agreed with itself and with
 * them) and 100 only the judge labelled, in both orders. On new-0 … new-19 its two orders disagree (win, then lose
 * with the replies swapped), so they are the uncertain ones; people will find that reply a in fact lost there. On
 * the rest both orders say win, and people agree except on every tenth item (a tie).
 */
type L = 'win' | 'tie' | 'lose';
const N_NEW = 100;
const UNSURE = 20;
const truthOf = (k: number): L => (k < UNSURE ? 'lose' : k % 10 === 0 ? 'tie' : 'win');
const SCORE: Record<L, number> = { lose: 0, tie: 0.5, win: 1 };

const { dir } = useTestDatabase();
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
  const newIds = Array.from({ length: N_NEW }, (_, k) => `new-${k}`);
  const calIds = Array.from({ length: 20 }, (_, k) => `cal-${k}`);
  studyId = buildStudy(lead, dir, {
    name: 'Active queue',
    reviewersPerItem: 1,
    catalog: [],
    items: [...calIds, ...newIds].map((id) => ({ id, model: 'm' })),
    annotations: calIds.map((item) => ({ item, annotator: 'expert', labels: { overall: 'win' } })),
    judges: [
      {
        name: 'judge',
        lines: [
          ...[...calIds, ...newIds].map((item) => ({ item, labels: { overall: 'win' as L } })),
          ...[...calIds, ...newIds].map((item, k) => ({
            item,
            swapped: true,
            labels: { overall: (k >= 20 && k - 20 < UNSURE ? 'lose' : 'win') as L },
          })),
        ],
      },
    ],
  });
});

/** Reviews everything in the person's queue as the truth says (the blind item names its reply a by its text). */
function reviewAll(actor: Actor) {
  let k = 0;
  for (let id = getQueue(actor, studyId).currentId; id !== null; id = getQueue(actor, studyId).currentId) {
    const a = getJudgeAssignment(actor, id);
    const ext = /Problem of (new-\d+)/.exec(a.problem)![1];
    const truth = truthOf(Number(ext.slice(4)));
    const aFirst = a.responses[0].startsWith('Reply of');
    const choice = truth === 'tie' ? 'tie' : (truth === 'win') === aFirst ? 'r1' : 'r2';
    submitJudgment(actor, {
      assignmentId: a.assignmentId,
      requestId: `active-${actor.id}-${k++}`,
      activeMs: 0,
      choices: { overall: choice },
    });
  }
}

describe('active labelling', () => {
  let runId: number;
  let seed: number;
  const pool = Array.from({ length: N_NEW }, (_, k) => (k < UNSURE ? 0.5 : 0));
  const pi = labellingProbabilities(pool, 0.2, 0.5);

  it('checks its input and who asks', () => {
    expect(codeOf(() => openActiveQueue(lead, studyId, { judge: 'judge', usernames: ['r1'] }))).toBe('conflict');
    openStudy(lead, studyId, { leaveUnassigned: true });
    expect(codeOf(() => openActiveQueue(r1, studyId, { judge: 'judge', usernames: ['r1'] }))).toBe('forbidden');
    expect(codeOf(() => openActiveQueue(lead, studyId, { judge: 'judge', tau: 0, usernames: ['r1'] }))).toBe('invalid');
    expect(codeOf(() => openActiveQueue(lead, studyId, { judge: 'judge', source: 'second_judge', usernames: ['r1'] }))).toBe('invalid');
  });

  it('draws from the unreviewed items with π from the disagreement of the two orders, stores the draw and queues the drawn items', () => {
    const q = openActiveQueue(lead, studyId, { judge: 'judge', source: 'orders', budget: 0.2, tau: 0.5, usernames: ['r1', 'r2'] });
    runId = sql('SELECT id FROM judge_runs WHERE study_id = ?', studyId)[0][0] as number;
    seed = ((4242 ^ runId) >>> 0) as number;
    // ū = 0.1, η = 2: π = ½·2·½ + 0.1 = 0.6 where the orders disagree, the floor τ·b = 0.1 elsewhere.
    expect(pi.slice(0, 2)).toEqual([0.6, 0.6]);
    expect(pi[UNSURE]).toBeCloseTo(0.1, 12);
    const xi = drawLabelledItems(pi, seed);
    const drawnIds = Array.from({ length: N_NEW }, (_, k) => k)
      .filter((k) => xi[k] === 1)
      .map((k) => `new-${k}`);
    expect(q).toMatchObject({ judge: 'judge', criterion: 'overall', source: 'orders', budget: 0.2, tau: 0.5, seed, pool: N_NEW });
    expect(q.expectedLabels).toBeCloseTo(20, 9);
    expect(q.drawn).toBe(drawnIds.length);
    expect(q.assignments.reduce((a, b) => a + b.items, 0)).toBe(drawnIds.length);

    const stored = sql(
      `SELECT i.external_id, d.pi, d.drawn FROM active_draw_items d JOIN items i ON i.id = d.item_id ORDER BY i.position`,
    ) as [string, number, number][];
    expect(stored.map((r) => r[0])).toEqual(Array.from({ length: N_NEW }, (_, k) => `new-${k}`));
    expect(stored.map((r) => r[1])).toEqual(pi);
    expect(stored.map((r) => r[2])).toEqual(xi);
    const queued = sql(
      `SELECT i.external_id FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.study_id = ? AND a.user_id IN (?, ?) ORDER BY i.position`,
      studyId,
      r1.id,
      r2.id,
    ).map((r) => r[0]);
    expect(queued).toEqual(drawnIds);
    // The uncertain items are drawn far more often than the rest.
    expect(xi.slice(0, UNSURE).reduce((a, b) => a + b, 0) / UNSURE).toBeGreaterThan(0.4);
  });

  /** The corrected overall win rate of model m as lib/stats computes it from the same design. */
  function expected(labelled: boolean) {
    const xiNew = drawLabelledItems(pi, seed);
    const yhat = [...Array(20).fill(1), ...Array(N_NEW).fill(1)];
    const xi = [...Array(20).fill(1), ...xiNew.map((x) => (labelled ? x : 0))];
    const y = [...Array(20).fill(1), ...Array.from({ length: N_NEW }, (_, k) => (xi[20 + k] ? SCORE[truthOf(k)] : null))];
    return activeMean({ yhat, budget: 0.2, tau: 0.5, xiActive: xi, xiUniform: xi.map(() => 0), y, pi: [...Array(20).fill(1), ...pi] })
      .active;
  }

  it('the corrected leaderboard says labels are pending until the drawn items are reviewed', () => {
    const cell = leaderboardReport(lead, studyId, { bootstrap: 0 }).corrected[0].cells[0];
    const drawn = drawLabelledItems(pi, seed).reduce((a, b) => a + b, 0);
    expect(cell).toMatchObject({ estimator: 'active_ipw', caution: 'labels_pending' });
    expect(cell.active).toEqual({
      pool: N_NEW,
      drawn,
      drawnLabelled: 0,
      pending: drawn,
      labelledBefore: 20,
      budget: 0.2,
      tau: 0.5,
      source: 'orders',
    });
    expect(cell.corrected.value).toBeCloseTo(expected(false).estimate.value!, 12);
  });

  it('weights each drawn label by 1/π once people have labelled them: the value and interval of activeMean', () => {
    reviewAll(r1);
    reviewAll(r2);
    const cell = leaderboardReport(lead, studyId, { bootstrap: 0 }).corrected[0].cells[0];
    const e = expected(true);
    expect(cell.estimator).toBe('active_ipw');
    expect(cell.active!.pending).toBe(0);
    expect(cell.caution).toBeNull();
    expect(cell.corrected.value).toBeCloseTo(e.estimate.value!, 12);
    expect(cell.intervals.corrected.lower).toBeCloseTo(e.ci.value![0], 12);
    expect(cell.intervals.corrected.upper).toBeCloseTo(e.ci.value![1], 12);
    expect(cell.humanOnly).toEqual({ value: null, reason: 'not_applicable' });
    // The judge alone says 100 %; the truth over the study is (20 + 72 + 8·½)/120 = 0.8 and the estimate is near it.
    expect(cell.judgeOnly.value).toBe(1);
    expect(Math.abs(cell.corrected.value! - 0.8)).toBeLessThan(0.15);
  });

  it('certifies the judge on the weighted estimate of its alignment over every judged item, not on the drawn items alone', () => {
    const xiNew = drawLabelledItems(pi, seed);
    // Prediction 1 − u: ½ where the orders disagree, 1 elsewhere; agreement 1 where the truth is the verdict (win).
    const yhat = [...Array(20).fill(1), ...pool.map((u) => 1 - u)];
    const xi = [...Array(20).fill(1), ...xiNew];
    const y = [...Array(20).fill(1), ...Array.from({ length: N_NEW }, (_, k) => (xiNew[k] ? (truthOf(k) === 'win' ? 1 : 0) : null))];
    const e = activeMean({
      yhat,
      budget: 0.2,
      tau: 0.5,
      xiActive: xi,
      xiUniform: xi.map(() => 0),
      y,
      pi: [...Array(20).fill(1), ...pi],
    }).active;
    const r = certifyReport(lead, studyId, { judge: 'judge', target: 0.5 });
    expect(r.estimator).toBe('active_ipw');
    expect(r.active).toMatchObject({ pool: N_NEW, pending: 0, labelledBefore: 20, source: 'orders' });
    expect(r.active!.alignmentRate.value).toBeCloseTo(e.estimate.value!, 12);
    expect(r.active!.interval.lower).toBeCloseTo(e.ci.value![0], 12);
    expect(r.active!.interval.upper).toBeCloseTo(e.ci.value![1], 12);
    // The true alignment is (20 + 72)/120 ≈ 0.77; the drawn items alone, mostly unsure ones, agree far less often.
    // 25 items drawn here: weighted 0.736, 95 % interval [0.559, 0.914], above the target of 0.5.
    expect(e.ci.value![0]).toBeGreaterThan(0.5);
    expect(r.decision).toBe('certified');
    expect(r.alignmentRate.value!).toBeLessThan(r.active!.alignmentRate.value!);
  });

  it('the CSV downloads and the CLI text say which estimator each row used and on how many labels, as the JSON does', () => {
    const r = certifyReport(lead, studyId, { judge: 'judge', target: 0.5 });
    const labels = r.active!.drawnLabelled + r.active!.labelledBefore;
    // The first row by header name (no cell here holds a comma or a quote).
    const split = (line: string) =>
      line
        .trim()
        .split(',')
        .map((c) => c.replace(/^"|"$/g, ''));
    const row = (lines: string[]) => Object.fromEntries(split(lines[0]).map((h, c) => [h, split(lines[1])[c]]));
    expect(row(reportCsv('certify', 'decision', r))).toMatchObject({
      estimator: r.estimator,
      estimator_labels: String(labels),
      labels_pending: '0',
      decision: 'certified',
      active_lower: String(r.active!.interval.lower),
    });
    expect(REPORT_TEXT.certify(r)).toContain(`estimator: active_ipw on ${labels} label(s)`);
    const lb = leaderboardReport(lead, studyId, { bootstrap: 0 });
    const cell = lb.corrected[0].cells[0];
    expect(row(reportCsv('leaderboard', 'corrected', lb))).toMatchObject({
      estimator: cell.estimator,
      estimator_labels: String(cell.active!.drawnLabelled + cell.active!.labelledBefore),
      labels_pending: '0',
    });
  });

  it('a second draw of the same run draws from what is left, with its own seed', () => {
    const q = openActiveQueue(lead, studyId, { judge: 'judge', budget: 0.1, tau: 0.5, usernames: ['r1'] });
    const drawn = drawLabelledItems(pi, seed).reduce((a, b) => a + b, 0);
    expect(q.pool).toBe(N_NEW - drawn);
    expect(q.seed).toBe(((4242 ^ runId) + 7919) >>> 0);
    expect(sql('SELECT count(*) FROM active_draws WHERE study_id = ?', studyId)[0][0]).toBe(2);
  });
});

describe('active labelling with a second judge run as the uncertainty', () => {
  it('draws by the disagreement between the two runs, a tie against a win counting half as much as a loss', () => {
    const ids = Array.from({ length: 40 }, (_, k) => `two-${k}`);
    // The second run says lose on two-0 … two-9, tie on two-10 … two-19, win (as the first) on the rest.
    const second = (k: number): L => (k < 10 ? 'lose' : k < 20 ? 'tie' : 'win');
    const id = buildStudy(lead, dir, {
      name: 'Two judges',
      reviewersPerItem: 1,
      catalog: [],
      items: ids.map((i) => ({ id: i, model: 'm' })),
      annotations: [],
      judges: [
        { name: 'first', lines: ids.map((item) => ({ item, labels: { overall: 'win' as L } })) },
        { name: 'second', lines: ids.map((item, k) => ({ item, labels: { overall: second(k) } })) },
      ],
    });
    openStudy(lead, id, { leaveUnassigned: true });
    expect(
      codeOf(() => openActiveQueue(lead, id, { judge: 'first', source: 'second_judge', secondJudge: 'first', usernames: ['r1'] })),
    ).toBe('invalid');
    const q = openActiveQueue(lead, id, {
      judge: 'first',
      source: 'second_judge',
      secondJudge: 'second',
      budget: 0.25,
      tau: 0.2,
      usernames: ['r1'],
    });
    const u = ids.map((_, k) => (k < 10 ? 0.5 : k < 20 ? 0.25 : 0));
    const pi = labellingProbabilities(u, 0.25, 0.2);
    expect(q).toMatchObject({ source: 'second_judge', secondJudge: 'second', pool: 40 });
    const stored = sql(
      `SELECT d.pi, d.drawn FROM active_draw_items d JOIN items i ON i.id = d.item_id WHERE i.study_id = ? ORDER BY i.position`,
      id,
    ) as [number, number][];
    expect(stored.map((r) => r[0])).toEqual(pi);
    expect(stored.map((r) => r[1])).toEqual(drawLabelledItems(pi, q.seed));
    // ū = 0.1875: π = 0.8·(0.25/0.1875)·u + 0.05 → 0.583 (a loss), 0.317 (a tie), 0.05 (agreement).
    expect(pi[0]).toBeCloseTo(0.8 * (0.25 / 0.1875) * 0.5 + 0.05, 12);
    expect(pi[10]).toBeCloseTo(0.8 * (0.25 / 0.1875) * 0.25 + 0.05, 12);
    expect(pi[20]).toBeCloseTo(0.05, 12);
  });
});

describe('active labelling with the spread of a launched run’s samples as the uncertainty', () => {
  it('draws by min(p, 1 − p) of the samples’ mean score, over every sample and both orders', () => {
    const ids = Array.from({ length: 40 }, (_, k) => `smp-${k}`);
    const id = buildStudy(lead, dir, {
      name: 'Samples',
      reviewersPerItem: 1,
      catalog: [],
      items: ids.map((i) => ({ id: i, model: 'm' })),
      annotations: [],
      judges: [{ name: 'sampled', lines: ids.map((item) => ({ item, labels: { overall: 'win' as L } })) }],
    });
    // The stored answers of the run: four per item (two samples × two orders), as a launched run keeps them.
    const samples = (k: number): L[] =>
      k < 10 ? ['win', 'lose', 'win', 'lose'] : k < 20 ? ['win', 'win', 'win', 'tie'] : ['win', 'win', 'win', 'win'];
    const run = sql('SELECT id FROM judge_runs WHERE study_id = ?', id)[0][0] as number;
    const put = getDb().$client.prepare(
      `INSERT INTO judge_answers (run_id, item_id, criterion, sample, swapped, verdicts, unreadable, raw, prompt_hash)
       SELECT ?, i.id, 'overall', ?, ?, ?, 0, '', 'h' FROM items i WHERE i.study_id = ? AND i.external_id = ?`,
    );
    ids.forEach((item, k) =>
      samples(k).forEach((label, s) => put.run(run, 1 + (s >> 1), s & 1, JSON.stringify({ overall: label }), id, item)),
    );
    openStudy(lead, id, { leaveUnassigned: true });
    const q = openActiveQueue(lead, id, { judge: 'sampled', source: 'samples', budget: 0.25, tau: 0.2, usernames: ['r1'] });
    // p = ½ → u = ½; p = 3.5/4 → u = 0.125; p = 1 → u = 0.
    const u = ids.map((_, k) => (k < 10 ? 0.5 : k < 20 ? 0.125 : 0));
    const pi = labellingProbabilities(u, 0.25, 0.2);
    expect(q).toMatchObject({ source: 'samples', pool: 40 });
    const stored = sql(
      `SELECT d.pi FROM active_draw_items d JOIN items i ON i.id = d.item_id WHERE i.study_id = ? ORDER BY i.position`,
      id,
    ).map((r) => r[0]);
    expect(stored).toEqual(pi);
    expect(pi[0]).toBeGreaterThan(pi[10]);
    expect(pi[10]).toBeGreaterThan(pi[20]);
  });
});

describe('active labelling with the judge’s verbalised confidence as the uncertainty', () => {
  it('draws with π from 1 − the confidence of each verdict, an item without one at the mean of the others', () => {
    const ids = Array.from({ length: 40 }, (_, k) => `conf-${k}`);
    // Confidence 0.55 on conf-0 … conf-9, 0.8 on conf-10 … conf-19, 0.99 on the rest but conf-39, which has none.
    const confidence = (k: number) => (k < 10 ? 0.55 : k < 20 ? 0.8 : 0.99);
    const id = buildStudy(lead, dir, {
      name: 'Confidences',
      reviewersPerItem: 1,
      catalog: [],
      items: ids.map((i) => ({ id: i, model: 'm' })),
      annotations: [],
      judges: [{ name: 'plain', lines: ids.map((item) => ({ item, labels: { overall: 'win' as L } })) }],
    });
    const lines = ids.map((item, k) => ({
      item,
      judge: 'verbal',
      labels: { overall: 'win' },
      ...(k === 39 ? {} : { confidence: confidence(k) }),
    }));
    importJudge(lead, id, writeTemp(dir, 'verbal.jsonl', lines.map((l) => JSON.stringify(l)).join('\n') + '\n'), 'concord');
    openStudy(lead, id, { leaveUnassigned: true });
    // A run without a confidence per verdict cannot be the source: every π would be the same.
    expect(codeOf(() => openActiveQueue(lead, id, { judge: 'plain', source: 'confidence', usernames: ['r1'] }))).toBe('invalid');
    const q = openActiveQueue(lead, id, { judge: 'verbal', source: 'confidence', budget: 0.25, tau: 0.2, usernames: ['r1'] });
    const known = ids.slice(0, 39).map((_, k) => 1 - confidence(k));
    const u = [...known, known.reduce((a, b) => a + b, 0) / known.length];
    const pi = labellingProbabilities(u, 0.25, 0.2);
    expect(q).toMatchObject({ source: 'confidence', pool: 40 });
    const stored = sql(
      `SELECT d.pi, d.drawn FROM active_draw_items d JOIN items i ON i.id = d.item_id WHERE i.study_id = ? ORDER BY i.position`,
      id,
    ) as [number, number][];
    expect(stored.map((r) => r[0])).toEqual(pi);
    expect(stored.map((r) => r[1])).toEqual(drawLabelledItems(pi, q.seed));
    expect(sql('SELECT source FROM active_draws WHERE study_id = ?', id)).toEqual([['confidence']]);
    expect(pi[0]).toBeGreaterThan(pi[10]);
    expect(pi[10]).toBeGreaterThan(pi[20]);
  });
});
