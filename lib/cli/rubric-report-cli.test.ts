import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '@/lib/server/actor';
import { errorBoundedAcceptance } from '@/lib/stats';
import { runInBatch } from '@/test/cli-batch';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';

/*
 * `concord report agreement|alignment|leaderboard|hybrid|certify|bias` on a rubric study, run by a real CLI process on the test's
 * database: the commands read the study as a rubric study and print the documented JSON (docs/cli.md).
 */
useTestDatabase();
let studyId: number;

/** One `concord batch` process for the file (test/cli-batch.ts): each command runs as it would alone. */
function concord(args: string[]) {
  const r = runInBatch(process.env, args);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  const lead: Actor = await makeUser('lead', 'lead');
  const items = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'];
  const gold: Record<string, string> = { a1: 'Yes', a2: 'No', a3: 'To some extent', b1: 'Yes', b2: 'Yes', b3: 'No' };
  const judge: Record<string, string> = { a1: 'Yes', a2: 'Yes', a3: 'To some extent', b1: 'Yes', b2: 'No', b3: 'No' };
  studyId = buildRubricStudy(lead, {
    name: 'CLI rubric',
    catalog: [
      {
        id: 'mi',
        name: 'Notices the mistake',
        labels: ['No', 'To some extent', 'Yes'],
        desired: 'Yes',
        lenient: { 'To some extent': 'Yes' },
      },
    ],
    reviewersPerItem: 2,
    items: items.map((id) => ({ id, source: id.startsWith('a') ? 'tutor-a' : 'tutor-b' })),
    annotations: items.flatMap((item) => [
      { item, annotator: 'ann1', labels: { mi: gold[item] } },
      { item, annotator: 'ann2', labels: { mi: gold[item] } },
    ]),
    judges: [{ name: 'judge', lines: items.map((item) => ({ item, labels: { mi: judge[item] } })) }],
  });
}, 30_000);

describe('concord report on a rubric study', () => {
  it('alignment --json: per dimension and per tutor, with class-wise accuracy and the lenient summary', () => {
    const r = concord(['report', 'alignment', '--study', String(studyId), '--judge', 'judge', '--bootstrap', '0', '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json).toMatchObject({ kind: 'rubric', judge: 'judge', sample: 1, samples: [1] });
    // Gold Y N S Y Y N against the judge Y Y S Y N N: 4 of 6.
    expect(json.byCriterion[0]).toMatchObject({ criterion: 'mi', n: 6, agree: 4, labels: ['No', 'To some extent', 'Yes'] });
    expect(json.byCriterion[0].confusion).toEqual([
      [1, 0, 1],
      [0, 1, 0],
      [1, 0, 2],
    ]);
    expect(json.byCriterion[0].classwise.map((c: { label: string; accuracy: number }) => [c.label, c.accuracy])).toEqual([
      ['No', 0.5],
      ['To some extent', 1],
      ['Yes', 2 / 3],
    ]);
    expect(json.byCriterion[0].lenient).toMatchObject({ labels: ['No', 'Yes'], n: 6, agree: 4 });
    expect(
      json.byModel.map((m: { model: string; agree: number; byCriterion: unknown[] }) => [m.model, m.agree, m.byCriterion.length]),
    ).toEqual([
      ['tutor-a', 2, 1],
      ['tutor-b', 2, 1],
    ]);
  });

  it('leaderboard, agreement and hybrid --json, and a clear error for a sample the run lacks', () => {
    const board = JSON.parse(concord(['report', 'leaderboard', '--study', String(studyId), '--json']).out);
    const gold = board.rows.find((r: { model: string; grader: string }) => r.model === 'tutor-a' && r.grader === 'ground truth');
    expect(gold.perCriterion.mi).toBeCloseTo(1 / 3, 12);
    expect(gold.lenient.mi).toBeCloseTo(2 / 3, 12);
    const agreement = JSON.parse(concord(['report', 'agreement', '--study', String(studyId), '--bootstrap', '0', '--json']).out);
    expect(agreement.criteria[0]).toMatchObject({ criterion: 'mi', items: 6, percentAgreement: 1 });
    const hybrid = JSON.parse(concord(['report', 'hybrid', '--study', String(studyId), '--judge', 'judge', '--lenient', '--json']).out);
    expect(hybrid).toMatchObject({
      kind: 'rubric',
      criterion: 'mi',
      lenient: true,
      n: 6,
      byModel: [{ model: 'tutor-a' }, { model: 'tutor-b' }],
    });
    const bad = concord(['report', 'alignment', '--study', String(studyId), '--judge', 'judge', '--sample', '2', '--json']);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('has no sample 2; its samples: 1');
  });

  it('hybrid --epsilon --delta --json: error-bounded acceptance beside Padó’s plan, as lib/stats decides it', () => {
    const r = concord(['report', 'hybrid', '--study', String(studyId), '--judge', 'judge', '--epsilon', '0.6', '--delta', '0.2', '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const a = JSON.parse(r.out).acceptance;
    // Strictly, gold Y N S Y Y N against the judge Y Y S Y N N: "No" 1 of 2 wrong, "To some extent" 0 of 1, "Yes" 1 of 3.
    const strata = [
      { name: 'No', n: 2, errors: 1, pool: 2 },
      { name: 'To some extent', n: 1, errors: 0, pool: 1 },
      { name: 'Yes', n: 3, errors: 1, pool: 3 },
    ];
    const direct = errorBoundedAcceptance(strata, { epsilon: 0.6, delta: 0.2, method: 'holm' });
    expect(a).toMatchObject({ epsilon: 0.6, delta: 0.2, method: 'holm', pool: 6, calibration: 6, acceptedLabels: direct.accepted });
    expect(a.strata.map((s: { label: string; n: number; errors: number; pValue: number }) => [s.label, s.n, s.errors, s.pValue])).toEqual(
      strata.map((s, j) => [s.name, s.n, s.errors, direct.perStratum[j].pValue]),
    );
    expect(a.pado).toMatchObject({ acceptedClass: 'To some extent', observedError: 0 });
    const text = concord(['report', 'hybrid', '--study', String(studyId), '--judge', 'judge', '--epsilon', '0.6', '--delta', '0.2']);
    expect(text.out).toContain('with a guarantee (error below 60.0 % with probability 80.0 %, Holm)');
  });

  it('certify and bias on a rubric study: the dimension, the sample and the lenient folding, as JSON and as text', () => {
    const study = String(studyId);
    const cert = concord(['report', 'certify', '--study', study, '--judge', 'judge', '--lenient', '--json']);
    expect(cert.err).toBe('');
    expect(cert.code).toBe(0);
    // Leniently gold Y N Y Y Y N against the judge Y Y Y Y N N: 4 of 6.
    expect(JSON.parse(cert.out)).toMatchObject({ kind: 'rubric', criterion: 'mi', sample: 1, lenient: true, n: 6, agree: 4, target: 0.9 });
    const text = concord(['report', 'certify', '--study', study, '--judge', 'judge', '--lenient']);
    expect(text.out).toMatch(/Certifying "judge" on mi \(judge sample 1, labels folded leniently\) against a target alignment of 0.9/);
    expect(text.out).toMatch(/4 of 6 ground-truth labels matched/);

    const bias = concord(['report', 'bias', '--study', study, '--json']);
    expect(bias.err).toBe('');
    const json = JSON.parse(bias.out);
    // Yes: gold on a1, b1, b2; the judge on a1, a2, b1.
    expect(json).toMatchObject({ kind: 'rubric', sample: 1, samples: [1], lenient: false });
    expect(json.leniency).toMatchObject([
      { judge: 'judge', criterion: 'mi', n: 6, judgeDesired: 3, groundTruthDesired: 3, judgeOnly: 1, groundTruthOnly: 1 },
    ]);
    expect(json.length.map((l: { grader: string; n: number }) => [l.grader, l.n])).toEqual([
      ['ground truth', 6],
      ['judge', 6],
    ]);
    // The leniency table's row: the judge's and the ground truth's share on the same 6 replies, 1 desired only by the judge.
    expect(concord(['report', 'bias', '--study', study]).out).toMatch(
      /judge, false, mi: Sample 1, Replies 6, .*Judge share 0\.500, Ground-truth share 0\.500, .*Only the judge 1, /,
    );
    const bad = concord(['report', 'certify', '--study', study, '--judge', 'judge', '--criterion', 'overall']);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/"overall" is not a dimension of this study; use one of: mi/);
  });
});
