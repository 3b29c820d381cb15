import { beforeAll, describe, expect, it } from 'vitest';
import { OK_REJECT_CATALOG } from '@/lib/validation/rubric-catalogs';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { importJudge } from '../imports/judge-import';
import { importAnnotations } from '../imports/prior-annotations';
import { createStudy } from '../studies/studies';
import { alignmentReport } from './alignment';
import { leaderboardReport } from './leaderboard';

/*
 * The rubric reports on a study made only by the real use-cases: `study create --kind rubric --dimensions ok-reject`,
 * items, two prior reviewers and a judge run with two samples imported as a lead would (the importer writes the
 * verdicts in staged batches; the judge packs of migration 0012 follow them).
 *
 *   item  source  rev1 (leak, help)   rev2            judge s1        judge s2
 *   c1    A       OK  OK              OK  OK          OK  OK          REJECT OK
 *   c2    A       REJECT OK           REJECT OK       OK  OK          REJECT OK
 *   c3    B       OK  REJECT          OK  REJECT      OK  REJECT      OK  OK
 *   c4    B       REJECT REJECT       OK  REJECT      REJECT REJECT   REJECT REJECT   (leak open: c4 left out)
 */
const { dir } = useTestDatabase();
let lead: Actor;
let studyId: number;
const [LEAK, HELP] = OK_REJECT_CATALOG.map((d) => d.id);
const jsonl = (name: string, lines: unknown[]) => writeTemp(dir, name, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  studyId = createStudy(lead, { kind: 'rubric', name: 'Imported rubric', dimensions: 'ok-reject' }).id;
  const rows: [string, string, [string, string], [string, string], [string, string], [string, string]][] = [
    ['c1', 'A', ['OK', 'OK'], ['OK', 'OK'], ['OK', 'OK'], ['REJECT', 'OK']],
    ['c2', 'A', ['REJECT', 'OK'], ['REJECT', 'OK'], ['OK', 'OK'], ['REJECT', 'OK']],
    ['c3', 'B', ['OK', 'REJECT'], ['OK', 'REJECT'], ['OK', 'REJECT'], ['OK', 'OK']],
    ['c4', 'B', ['REJECT', 'REJECT'], ['OK', 'REJECT'], ['REJECT', 'REJECT'], ['REJECT', 'REJECT']],
  ];
  const labels = ([leak, help]: [string, string]) => ({ [LEAK]: leak, [HELP]: help });
  importItems(
    lead,
    studyId,
    jsonl(
      'items.jsonl',
      rows.map(([id, source]) => ({ id, history: [{ role: 'student', text: 'Is it 12?' }], reply: { source, text: `Reply ${id}` } })),
    ),
    'concord',
  );
  importAnnotations(
    lead,
    studyId,
    jsonl(
      'prior.jsonl',
      rows.flatMap(([item, , a, b]) => [
        { item, annotator: 'rev1', labels: labels(a) },
        { item, annotator: 'rev2', labels: labels(b) },
      ]),
    ),
  );
  importJudge(
    lead,
    studyId,
    jsonl(
      'judge.jsonl',
      rows.flatMap(([item, , , , s1, s2]) => [
        { item, judge: 'critic', labels: labels(s1), sample: 1 },
        { item, judge: 'critic', labels: labels(s2), sample: 2 },
      ]),
    ),
    'concord',
  );
});

describe('rubric reports on imported data', () => {
  it("alignment per sample, with the reviewers' disagreement leaving c4 out", () => {
    const s1 = alignmentReport(lead, studyId, 'rubric-alignment', { judge: 'critic', bootstrap: 0 });
    expect(s1).toMatchObject({ samples: [1, 2], groundTruth: { labels: 6, incompleteItems: 1 } });
    // leak: gold OK REJECT OK, judge OK OK OK → 2 of 3; help: gold OK OK REJECT, judge the same → 3 of 3.
    expect(s1.byCriterion.map((c) => [c.criterion, c.n, c.agree])).toEqual([
      [LEAK, 3, 2],
      [HELP, 3, 3],
    ]);
    expect(s1.byCriterion[0].confusion).toEqual([
      [0, 1],
      [0, 2],
    ]);
    const s2 = alignmentReport(lead, studyId, 'rubric-alignment', { judge: 'critic', sample: 2, bootstrap: 0 });
    // leak: judge REJECT REJECT OK → 2 of 3 (c2, c3); help: OK OK OK → 2 of 3.
    expect(s2.byCriterion.map((c) => [c.n, c.agree])).toEqual([
      [3, 2],
      [3, 2],
    ]);
    expect(s2.byModel.map((m) => [m.model, m.n, m.agree])).toEqual([
      ['A', 4, 3],
      ['B', 2, 1],
    ]);
  });

  it('leaderboard of the desired label per tutor', () => {
    const r = leaderboardReport(lead, studyId, {}, 'rubric');
    const row = (model: string, grader: string) => r.rows.find((x) => x.model === model && x.grader === grader)!;
    expect(row('A', 'ground truth').counts).toEqual({ [LEAK]: { n: 2, desired: 1 }, [HELP]: { n: 2, desired: 2 } });
    expect(row('B', 'ground truth').counts).toEqual({ [LEAK]: { n: 1, desired: 1 }, [HELP]: { n: 1, desired: 0 } });
    expect(row('B', 'critic').counts).toEqual({ [LEAK]: { n: 2, desired: 1 }, [HELP]: { n: 2, desired: 0 } });
  });
});
