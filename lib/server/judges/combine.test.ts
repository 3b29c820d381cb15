import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildStudy, codeOf } from '@/test/analytics-fixtures';
import { writeTemp } from '@/test/db';
import { importItems } from '../imports/imports';
import { importJudge } from '../imports/judge-import';
import { createStudy } from '../studies/studies';
import type { Actor } from '../actor';
import { alignmentReport } from '../analytics/alignment';
import { listJudgeRuns } from '../analytics/runs';
import { DomainError } from '../errors';
import { combineJudgeRuns } from './combine';

/*
 * Three judge runs on six items of a pairwise study, written so that every case of the majority rule occurs once:
 * a clear majority, a three-way tie, unanimity, a run that did not judge the item, a run whose only verdict was
 * given with the replies swapped, and an item only one run judged.
 */
const { dir } = useTestDatabase();
let lead: Actor;
let studyId: number;

type L = 'lose' | 'tie' | 'win';
const v = (item: string, overall: L, swapped = false) => ({ item, labels: { overall }, swapped });

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  const items = ['i1', 'i2', 'i3', 'i4', 'i5', 'i6'].map((id) => ({ id, model: 'm' }));
  studyId = buildStudy(lead, dir, {
    name: 'Combine',
    reviewersPerItem: 1,
    catalog: [],
    items,
    annotations: [
      { item: 'i1', annotator: 'reviewer', labels: { overall: 'win' } },
      { item: 'i2', annotator: 'reviewer', labels: { overall: 'tie' } },
      { item: 'i3', annotator: 'reviewer', labels: { overall: 'lose' } },
      { item: 'i4', annotator: 'reviewer', labels: { overall: 'win' } },
      { item: 'i5', annotator: 'reviewer', labels: { overall: 'lose' } },
      { item: 'i6', annotator: 'reviewer', labels: { overall: 'win' } },
    ],
    judges: [
      { name: 'j1', lines: [v('i1', 'win'), v('i2', 'win'), v('i3', 'tie'), v('i4', 'win'), v('i5', 'lose', true), v('i6', 'win')] },
      { name: 'j2', lines: [v('i1', 'win'), v('i2', 'tie'), v('i3', 'tie'), v('i4', 'win'), v('i5', 'lose')] },
      { name: 'j3', lines: [v('i1', 'lose'), v('i2', 'lose'), v('i3', 'tie'), v('i5', 'win')] },
    ],
  });
});

/** The stored verdicts of a run, by item (read from the rows, not through the code under test). */
function stored(run: string): Record<string, string> {
  const rows = getDb()
    .$client.prepare(
      `SELECT i.external_id, l.label, l.swapped FROM judge_labels l JOIN judge_runs r ON r.id = l.run_id JOIN items i ON i.id = l.item_id
        WHERE r.study_id = ? AND r.name = ? AND l.criterion = 'overall' ORDER BY i.external_id`,
    )
    .raw()
    .all(studyId, run) as [string, string, number][];
  expect(rows.every((r) => r[2] === 0)).toBe(true);
  return Object.fromEntries(rows.map((r) => [r[0], r[1]]));
}

describe('combining judge runs', () => {
  it('takes the majority, leaves a tie and a missing verdict unjudged, counts them, and stores the recipe', () => {
    const r = combineJudgeRuns(lead, studyId, { runs: 'j1,j2,j3', rule: 'majority', name: 'majority of three' });
    expect(r.recipe).toEqual({
      rule: 'majority',
      runs: ['j1', 'j2', 'j3'],
      missing: 'unjudged',
      counts: { pairs: 6, combined: 3, tie: 1, missing: 2 },
    });
    // i1 two wins of three; i2 win/tie/lose is a tie; i3 unanimous; i4 and i6 lack a verdict; i5 counts j1's swapped verdict.
    expect(stored('majority of three')).toEqual({ i1: 'win', i3: 'tie', i5: 'lose' });
    const listed = listJudgeRuns(lead, studyId).find((x) => x.name === 'majority of three')!;
    expect(listed).toMatchObject({ labels: 3, unparsed: 0, recipe: r.recipe });
    expect(listJudgeRuns(lead, studyId).find((x) => x.name === 'j1')!.recipe).toBeNull();
  });

  it('combines the verdicts there are when asked to ignore missing ones', () => {
    const r = combineJudgeRuns(lead, studyId, {
      runs: ['j1', 'j2', 'j3'],
      rule: 'majority',
      name: 'majority ignoring gaps',
      missing: 'ignore',
    });
    expect(r.recipe.counts).toEqual({ pairs: 6, combined: 5, tie: 1, missing: 0 });
    expect(stored('majority ignoring gaps')).toEqual({ i1: 'win', i3: 'tie', i4: 'win', i5: 'lose', i6: 'win' });
  });

  it('is analysed like any other run: the alignment report reads the combined verdicts', () => {
    const a = alignmentReport(lead, studyId, 'alignment', { judge: 'majority of three', bootstrap: 0 });
    // Ground truth win/tie/lose/win/lose/win; combined win on i1, tie on i3 (truth lose), lose on i5.
    expect(a.overall).toMatchObject({ n: 3, agree: 2 });
  });

  it('refuses what it cannot do, with a message saying why, and writes nothing', () => {
    const runsBefore = listJudgeRuns(lead, studyId).length;
    const message = (input: unknown) => {
      try {
        combineJudgeRuns(lead, studyId, input);
      } catch (e) {
        if (e instanceof DomainError) return `${e.code}: ${e.message}`;
        throw e;
      }
      return 'accepted';
    };
    expect(message({ runs: 'j1,j2', rule: 'all', name: 'x' })).toMatch(/^invalid: .*desired label.*majority/);
    expect(message({ runs: 'j1,nope', rule: 'majority', name: 'x' })).toMatch(/^invalid: .*no judge run named "nope".*j1, j2, j3/);
    expect(message({ runs: 'j1', rule: 'majority', name: 'x' })).toMatch(/^invalid: .*at least two runs/);
    expect(message({ runs: 'j1,j1', rule: 'majority', name: 'x' })).toMatch(/^invalid: .*listed twice/);
    expect(message({ runs: 'j1,j2', rule: 'most', name: 'x' })).toMatch(/^invalid: .*all, any or majority/);
    expect(message({ runs: 'j1,j2', rule: 'majority', name: '' })).toMatch(/^invalid: .*Name the run/);
    // The same name again (a double click) is refused, not written twice.
    expect(message({ runs: 'j1,j2', rule: 'majority', name: 'majority of three' })).toMatch(/^conflict: .*already exists/);
    expect(message({ runs: 'j1,j2', rule: 'majority', name: 'j1' })).toMatch(/^conflict: /);
    expect(listJudgeRuns(lead, studyId).length).toBe(runsBefore);
  });

  it('is for leads: an annotator cannot combine runs', async () => {
    const annotator = await makeUser('someone');
    expect(codeOf(() => combineJudgeRuns(annotator, studyId, { runs: 'j1,j2', rule: 'majority', name: 'theirs' }))).not.toBe('ok');
    expect(listJudgeRuns(lead, studyId).some((r) => r.name === 'theirs')).toBe(false);
  });
});

describe('combining rubric runs', () => {
  const catalog = [
    { id: 'mi', name: 'Mistake identification', labels: ['No', 'To some extent', 'Yes'], desired: 'Yes' },
    { id: 'leak', name: 'Answer withheld', labels: ['REJECT', 'OK'], desired: 'OK' },
  ];
  let rubricId: number;
  const file = (name: string, lines: unknown[]) => writeTemp(dir, name, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');

  beforeAll(() => {
    rubricId = createStudy(lead, { kind: 'rubric', name: 'Rubric combine', dimensions: catalog }).id;
    const reply = (id: string) => ({
      id,
      history: [{ role: 'student', text: 'It is 8.' }],
      reply: { source: 'tutor-x', text: `Reply ${id}` },
    });
    importItems(lead, rubricId, file('rubric-items.jsonl', ['r1', 'r2', 'r3'].map(reply)), 'concord');
    const runs: Record<string, { item: string; labels: Record<string, string>; sample?: number }[]> = {
      g1: [
        { item: 'r1', labels: { mi: 'Yes', leak: 'OK' } },
        { item: 'r2', labels: { mi: 'To some extent', leak: 'OK' } },
        { item: 'r3', labels: { mi: 'Yes', leak: 'REJECT' } },
      ],
      g2: [
        { item: 'r1', labels: { mi: 'Yes', leak: 'OK' } },
        { item: 'r2', labels: { mi: 'No', leak: 'REJECT' } },
      ],
      sampled: [
        { item: 'r1', labels: { mi: 'Yes' }, sample: 1 },
        { item: 'r1', labels: { mi: 'Yes' }, sample: 2 },
        { item: 'r1', labels: { mi: 'No' }, sample: 3 },
        { item: 'r2', labels: { mi: 'Yes' }, sample: 1 },
        { item: 'r2', labels: { mi: 'To some extent' }, sample: 2 },
      ],
    };
    for (const [judge, lines] of Object.entries(runs))
      importJudge(
        lead,
        rubricId,
        file(
          `rubric-${judge}.jsonl`,
          lines.map((l) => ({ ...l, judge })),
        ),
        'concord',
      );
  });

  /** A rubric run's stored verdicts as `item/dimension → label`, decoded here from the codes and the catalog. */
  function storedRubric(run: string): Record<string, string> {
    const rows = getDb()
      .$client.prepare(
        `SELECT i.external_id, v.dimension, v.sample, v.label FROM rubric_judge_labels v JOIN judge_runs r ON r.id = v.run_id
           JOIN items i ON i.id = v.item_id WHERE r.study_id = ? AND r.name = ?`,
      )
      .raw()
      .all(rubricId, run) as [string, number, number, number][];
    expect(rows.every((r) => r[2] === 1)).toBe(true);
    return Object.fromEntries(rows.map(([item, d, , l]) => [`${item}/${catalog[d].id}`, catalog[d].labels[l]]));
  }

  it('all: the desired label only where every run gave it, else the worst label given', () => {
    const r = combineJudgeRuns(lead, rubricId, { runs: 'g1,g2', rule: 'all', name: 'all of g' });
    expect(r.recipe.counts).toEqual({ pairs: 6, combined: 4, tie: 0, missing: 2 });
    expect(storedRubric('all of g')).toEqual({ 'r1/mi': 'Yes', 'r1/leak': 'OK', 'r2/mi': 'No', 'r2/leak': 'REJECT' });
    expect(listJudgeRuns(lead, rubricId).find((x) => x.name === 'all of g')).toMatchObject({ labels: 4, recipe: r.recipe });
  });

  it('any: the desired label where one run gave it, else the best label given', () => {
    const r = combineJudgeRuns(lead, rubricId, { runs: 'g1,g2', rule: 'any', name: 'any of g', missing: 'ignore' });
    expect(r.recipe.counts).toEqual({ pairs: 6, combined: 6, tie: 0, missing: 0 });
    expect(storedRubric('any of g')).toEqual({
      'r1/mi': 'Yes',
      'r1/leak': 'OK',
      'r2/mi': 'To some extent',
      'r2/leak': 'OK',
      'r3/mi': 'Yes',
      'r3/leak': 'REJECT',
    });
  });

  it('majority over the samples of one run, a tie left unjudged; one run of single samples is refused', () => {
    const r = combineJudgeRuns(lead, rubricId, { runs: 'sampled', rule: 'majority', name: 'sample majority' });
    expect(r.recipe.counts).toEqual({ pairs: 2, combined: 1, tie: 1, missing: 0 });
    expect(storedRubric('sample majority')).toEqual({ 'r1/mi': 'Yes' });
    expect(() => combineJudgeRuns(lead, rubricId, { runs: 'g1', rule: 'majority', name: 'alone' })).toThrow(/one sample per item/);
  });
});
