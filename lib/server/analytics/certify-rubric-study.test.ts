import { beforeAll, describe, expect, it } from 'vitest';
import { reportCsv } from '@/lib/io/report-csv';
import { parseCsv } from '@/test/csv';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { importJudge } from '../imports/judge-import';
import { importAnnotations } from '../imports/prior-annotations';
import { getAdjudicationQueue, submitRubricAdjudication } from '../review/adjudication';
import { createStudy, openStudy, setStudyMembers } from '../studies/studies';
import { biasReport } from './bias';
import { reportForRequest } from './report-process';
import { certifyReport } from './certify';

/*
 * Certification of a judge on a rubric study, on studies made by the real use-cases (`study create --kind rubric
 * --dimensions mrbench-v3`, items, prior annotations, judge runs imported as a lead would, rulings by the
 * adjudicator's use-case). MRBench's scale: No / To some extent / Yes, "To some extent" folded into "Yes" leniently.
 */
const { dir } = useTestDatabase();
let lead: Actor;
const MI = 'mistake_identification';
const ML = 'mistake_location';
const SCALE = ['No', 'To some extent', 'Yes'] as const;
type Label = (typeof SCALE)[number];

let files = 0;
const jsonl = (lines: unknown[]) => writeTemp(dir, `f${++files}.jsonl`, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
const item = (id: string) => ({ id, history: [{ role: 'student', text: 'Is it 12?' }], reply: { source: 'T', text: `Reply ${id}` } });

function rubricStudy(name: string, reviewersPerItem: number, ids: string[]): number {
  const id = createStudy(lead, { kind: 'rubric', name, dimensions: 'mrbench-v3', reviewersPerItem }).id;
  importItems(lead, id, jsonl(ids.map(item)), 'concord');
  return id;
}

const judge = (studyId: number, name: string, ids: string[], labels: (k: number) => Record<string, Label>) =>
  importJudge(lead, studyId, jsonl(ids.map((it, k) => ({ item: it, judge: name, labels: labels(k) }))), 'concord');

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
});

describe('certification of a rubric judge', () => {
  const N = 300;
  const ids = Array.from({ length: N }, (_, k) => `r-${String(k).padStart(3, '0')}`);
  const truth = (k: number): Label => SCALE[k % 3];
  let studyId: number;

  beforeAll(() => {
    studyId = rubricStudy('Certify rubric', 1, ids);
    importAnnotations(
      lead,
      studyId,
      jsonl(ids.map((it, k) => ({ item: it, annotator: 'r1', labels: { [MI]: truth(k), [ML]: truth(k + 1) } }))),
    );
    // Right on 95 % of the replies (wrong on every 20th: "No" ↔ "Yes", "To some extent" → "No").
    const wrong = (l: Label): Label => (l === 'No' ? 'Yes' : 'No');
    judge(studyId, 'good', ids, (k) => ({ [MI]: k % 20 === 7 ? wrong(truth(k)) : truth(k), [ML]: truth(k + 1) }));
    // Says "Yes" wherever people said "To some extent": wrong on a third strictly, never leniently.
    judge(studyId, 'generous', ids, (k) => ({ [MI]: truth(k) === 'To some extent' ? 'Yes' : truth(k) }));
  });

  it('certifies the judge right 95 % of the time and refutes the generous one strictly, at a target of 0.8', () => {
    const good = certifyReport(lead, studyId, { judge: 'good', target: 0.8 }, 'rubric');
    expect(good).toMatchObject({
      kind: 'rubric',
      criterion: MI,
      sample: 1,
      lenient: false,
      n: N,
      agree: 285,
      decision: 'certified',
      drift: false,
    });
    expect(good.bounds.lower!).toBeGreaterThanOrEqual(0.8);
    const generous = certifyReport(lead, studyId, { judge: 'generous', criterion: MI, target: 0.8 }, 'rubric');
    expect(generous).toMatchObject({ n: N, agree: 200, decision: 'refuted' });
    expect(generous.bounds.upper!).toBeLessThan(0.8);
    // The same path shape as pairwise certification: undecided at first.
    expect(good.path[6]).toMatchObject({ t: 7, lower: 0, upper: 1 });
    expect(good.path.at(-1)).toMatchObject({ t: N, item: 'r-299' });
  });

  it('folds the labels by the lenient map when asked: the generous judge is then always right', () => {
    const r = certifyReport(lead, studyId, { judge: 'generous', target: 0.8, lenient: 'true' }, 'rubric');
    expect(r).toMatchObject({ lenient: true, n: N, agree: N, decision: 'certified' });
    const rows = parseCsv(reportCsv('rubric-certify', 'decision', r).join(''));
    expect(rows[0].slice(0, 5)).toEqual(['judge', 'sample', 'lenient', 'criterion', 'target']);
    expect(rows[1].slice(0, 7)).toEqual(['generous', '1', 'true', MI, '0.8', String(N), String(N)]);
    // The other dimension: the judge gave no verdict there, so no observation and every ground-truth label unjudged.
    const ml = certifyReport(lead, studyId, { judge: 'generous', criterion: ML }, 'rubric');
    expect(ml).toMatchObject({
      n: 0,
      unjudged: N,
      alignmentRate: { value: null, reason: 'no_items' },
      bounds: { lower: null, reason: 'no_items' },
    });
  });

  it('is computed for the web server by the report process, with the same numbers, as is the rubric bias report', async () => {
    const options = { judge: 'generous', lenient: 'true', target: '0.8', criterion: MI };
    const [certify, bias] = await Promise.all([
      reportForRequest(lead, studyId, 'rubric-certify', options),
      reportForRequest(lead, studyId, 'rubric-bias', { lenient: 'true' }),
    ]);
    // The registry adds to every report the labels the study's exclusions left out (none here).
    const none = { excluded: { labels: 0, annotators: [] } };
    expect(certify).toEqual(JSON.parse(JSON.stringify({ ...certifyReport(lead, studyId, options, 'rubric'), ...none })));
    expect(certify).toMatchObject({ lenient: true, target: 0.8, agree: N });
    expect(bias).toEqual(JSON.parse(JSON.stringify({ ...biasReport(lead, studyId, 'rubric-bias', { lenient: true }), ...none })));
    expect(bias.leniency.length).toBeGreaterThan(0);
  }, 60_000);

  it('refuses what it cannot certify with a message naming the option', () => {
    expect(() => certifyReport(lead, studyId, { judge: 'good', criterion: 'overall' }, 'rubric')).toThrow(
      /"overall" is not a dimension of this study; use one of: mistake_identification, mistake_location/,
    );
    expect(() => certifyReport(lead, studyId, { judge: 'nobody' }, 'rubric')).toThrow(/A judge run named "nobody"/);
    expect(() => certifyReport(lead, studyId, { judge: 'good', sample: 2 }, 'rubric')).toThrow(/has no sample 2; its samples: 1/);
    expect(() => certifyReport(lead, studyId, { judge: 'good', target: 1 }, 'rubric')).toThrow(/target is an alignment rate, below 1/);
    const pairwise = createStudy(lead, { kind: 'pairwise', name: 'Pairs' }).id;
    expect(() => certifyReport(lead, pairwise, { judge: 'good' }, 'rubric')).toThrow(/for rubric studies/);
  });
});

describe('the alternative annotator test on a rubric study', () => {
  it('lets a judge that agrees with the reviewers replace one, and not a judge that always says No', () => {
    const ids = Array.from({ length: 60 }, (_, k) => `a-${String(k).padStart(2, '0')}`);
    const id = rubricStudy('Three reviewers', 3, ids);
    const truth = (k: number): Label => SCALE[k % 3];
    const other = (l: Label): Label => (l === 'No' ? 'Yes' : 'No');
    // Each reviewer is wrong on a tenth of the replies, never on the same ones.
    importAnnotations(
      lead,
      id,
      jsonl(
        ids.flatMap((it, k) =>
          [1, 2, 3].map((p) => ({ item: it, annotator: `p${p}`, labels: { [MI]: k % 10 === p ? other(truth(k)) : truth(k) } })),
        ),
      ),
    );
    judge(id, 'faithful', ids, (k) => ({ [MI]: truth(k) }));
    judge(id, 'naysayer', ids, () => ({ [MI]: 'No' }));
    const faithful = certifyReport(lead, id, { judge: 'faithful' }, 'rubric').altTest;
    expect(faithful).toMatchObject({ epsilon: 0.2, minReviewers: 3 });
    const mi = faithful.criteria.find((c) => c.criterion === MI)!;
    expect(mi).toMatchObject({ itemsWithEnoughReviewers: 60, itemsUsed: 60, annotatorsTested: 3, judgeCanReplace: true });
    expect(mi.annotators.map((a) => [a.annotator, a.items, a.judgeWins])).toEqual([
      ['p1', 60, true],
      ['p2', 60, true],
      ['p3', 60, true],
    ]);
    // Another dimension nobody labelled: nothing to test.
    expect(faithful.criteria.find((c) => c.criterion === ML)).toMatchObject({ itemsWithEnoughReviewers: 0, judgeCanReplace: null });
    const nay = certifyReport(lead, id, { judge: 'naysayer' }, 'rubric').altTest.criteria.find((c) => c.criterion === MI)!;
    expect(nay).toMatchObject({ annotatorsTested: 3, judgeCanReplace: false, winningRate: { value: 0 } });
  });
});

describe('the settle order of a rubric study', () => {
  it('takes replies in the order their ground truth was settled, a ruled reply at its ruling', async () => {
    const ids = Array.from({ length: 40 }, (_, k) => `s-${String(k).padStart(2, '0')}`);
    const id = rubricStudy('Settle order rubric', 2, ids);
    judge(id, 'yes-sayer', ids, () => ({ [MI]: 'Yes' }));
    // Two reviewers; the second batch (s-20…s-39) arrives first. On s-05 the reviewers disagree.
    for (const [from, to] of [
      [20, 40],
      [0, 20],
    ]) {
      importAnnotations(
        lead,
        id,
        jsonl(
          ids.slice(from, to).flatMap((it) => [
            { item: it, annotator: 'p1', labels: { [MI]: 'Yes' } },
            { item: it, annotator: 'p2', labels: { [MI]: it === 's-05' ? 'No' : 'Yes' } },
          ]),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    setStudyMembers(lead, id, { usernames: [], adjudicator: 'lead' });
    openStudy(lead, id);
    const before = certifyReport(lead, id, { judge: 'yes-sayer' }, 'rubric');
    // s-05 has no ground truth until it is ruled on.
    expect(before.n).toBe(39);
    expect(before.path.map((p) => p.item).slice(0, 2)).toEqual(['s-20', 's-21']);
    expect(before.path[20].item).toBe('s-00');

    await new Promise((resolve) => setTimeout(resolve, 20));
    // The only reply waiting for the adjudicator is s-05.
    const queue = getAdjudicationQueue(lead, id);
    expect(queue.items).toHaveLength(1);
    submitRubricAdjudication(lead, {
      studyId: id,
      itemId: queue.currentItemId!,
      requestId: 'ruling-s05-0001',
      labels: { [MI]: 'No' },
      rationales: { [MI]: 'The reply misses the error.' },
    });
    const after = certifyReport(lead, id, { judge: 'yes-sayer' }, 'rubric');
    expect(after.n).toBe(40);
    // Ruled last, so observed last; the judge said Yes where the ruling said No.
    expect(after.path.at(-1)).toMatchObject({ t: 40, item: 's-05', agree: 0 });
    expect(after.path.at(-2)!.settledAt <= after.path.at(-1)!.settledAt).toBe(true);
    expect(after.agree).toBe(39);
  });
});
