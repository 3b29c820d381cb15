// Hostile pairwise items, prior annotations, judge runs and criteria catalogs; the framework and the flow cases
// are in hostile-corpus.ts.
import { E, lines, pair, type AddCase } from './hostile-corpus';

/** Adds the pairwise, annotation and judge cases to a corpus being generated. */
export function addPairwiseCases(add: AddCase) {
  /* ----- pairwise items ----- */
  add(
    'pairwise-wrong-types',
    'pairwise',
    lines(
      pair('p-a'),
      pair('p-b', { problem: { text: 'nested' } }),
      pair('p-c', { a: { source: '', text: 'x' } }),
      pair('p-d', { principles: ['Practice', 'Practice'] }),
      pair('p-e', { history: [{ role: 'teacher', text: 'hi' }] }),
      { ...pair('p-f'), b: undefined },
    ),
    [
      E(2, 'problem', 'record', /must be a string/),
      E(3, 'a.source', 'record', /non-empty/),
      E(4, 'principles[1]', 'record', /repeats the principle/),
      E(5, 'history[0].role', 'record', /tutor, student/),
      E(6, 'b', 'record', /required/),
    ],
  );
  add('pairwise-existing-id-changed-source', 'pairwise', lines(pair('pw-1', { a: { source: 'model-z', text: 'Try 180 ÷ 15.' } })), [
    E(1, 'id', 'import', /different content/),
  ]);
  add('pairwise-duplicate-and-html', 'pairwise', lines(pair('<svg onload=alert(1)>'), pair('<svg onload=alert(1)>')), [
    E(2, 'id', 'import', /first on line 1/),
  ]);

  /* ----- prior annotations ----- */
  const ann = (item: string, annotator: string, labels: unknown) => ({ item, annotator, labels });
  add(
    'annotations-unknown-item-and-criterion',
    'annotations',
    lines(
      ann('pw-1', 'prior1', { coherence: 'win', overall: 'tie' }),
      ann('no-such-item', 'prior1', { overall: 'win' }),
      ann('pw-2', 'prior1', { practice_difficulty: 'win' }), // pw-2 targets Questioning only
      ann('pw-1', 'prior2', { made_up: 'win', overall: 'lose' }),
    ),
    [
      E(2, 'item', 'import', /no item "no-such-item"/),
      E(3, 'labels.practice_difficulty', 'import', /not a criterion of item "pw-2"/),
      E(4, 'labels.made_up', 'import', /not a criterion/),
    ],
  );
  add(
    'annotations-invalid-labels',
    'annotations',
    lines(
      ann('pw-1', 'prior1', { coherence: 'better' }),
      ann('pw-1', 'prior2', {}),
      ann('pw-1', 'prior3', { Coherence: 'win' }),
      ann('pw-1', 'prior4', ['win']),
      ann('pw-1', 'prior5', { overall: null }),
    ),
    [
      E(1, 'labels.coherence', 'record', /lose, tie, win/),
      E(2, 'labels', 'record', /at least one label/),
      E(3, 'labels.Coherence', 'record', /not a valid criterion id/),
      E(4, 'labels', 'record', /must be an object/),
      E(5, 'labels.overall', 'record', /lose, tie, win/),
    ],
  );
  add(
    'annotations-people',
    'annotations',
    lines(
      ann('pw-1', 'Bad Name!', { overall: 'win' }),
      ann('pw-1', 'prior1', { overall: 'win' }),
      ann('pw-1', 'prior1', { overall: 'lose' }),
      ann('pw-1', 'prior2', { overall: 'lose' }),
      ann('pw-1', 'prior3', { overall: 'tie' }),
    ),
    [
      E(1, 'annotator', 'import', /cannot be an account name/),
      E(3, 'annotator', 'import', /already labelled "pw-1" on line 2/),
      // A third rater beyond the two planned is not a problem (decision 0028: prior raters are not bounded by the plan).
    ],
  );
  add(
    'annotations-prototype-keys',
    'annotations',
    lines(
      '{"item":"pw-1","annotator":"prior1","labels":{"__proto__":"win"}}',
      ann('pw-1', 'prior2', { constructor: 'win' }),
      '{"item":"pw-1","annotator":"prior3","labels":{"overall":"win"},"__proto__":{"isAdmin":true}}',
    ),
    [
      // JSON.parse makes "__proto__" an own key, which a record would drop silently: it is reported instead.
      E(1, 'labels.__proto__', 'record', /not a criterion id/),
      E(2, 'labels.constructor', 'record', /not a criterion id/),
    ],
  );

  /* ----- judge runs ----- */
  const verdict = (item: string, labels: unknown, extra: Record<string, unknown> = {}) => ({
    item,
    judge: 'judge-hostile',
    labels,
    ...extra,
  });
  add(
    'judge-unknown-item-and-criterion',
    'judge',
    lines(
      verdict('pw-1', { overall: 'win' }),
      verdict('ghost', { overall: 'win' }),
      verdict('pw-2', { coherence: 'tie', nonsense: 'win' }),
    ),
    [E(2, 'item', 'import', /no item "ghost"/), E(3, 'labels.nonsense', 'import', /not a criterion of item "pw-2"/)],
  );
  add(
    'judge-invalid-labels-and-types',
    'judge',
    lines(
      verdict('pw-1', { overall: 'A' }),
      verdict('pw-2', { overall: 'win' }, { swapped: 'yes' }),
      verdict('pw-2', { overall: 'win' }, { rationale: 7 }),
      { item: 'pw-1', labels: { overall: 'tie' } },
    ),
    [
      E(1, 'labels.overall', 'record', /lose, tie, win/),
      E(2, 'swapped', 'record', /true or false/),
      E(3, 'rationale', 'record', /must be a string/),
      E(4, 'judge', 'record', /required/),
    ],
  );
  add(
    'judge-duplicate-verdict-and-mixed-runs',
    'judge',
    lines(
      verdict('pw-1', { overall: 'win' }),
      verdict('pw-1', { overall: 'lose' }),
      verdict('pw-1', { overall: 'lose' }, { swapped: true }),
      { ...verdict('pw-2', { overall: 'tie' }), judge: 'other-judge' },
    ),
    [E(2, 'labels.overall', 'import', /a second verdict on "overall" for "pw-1"/), E(0, 'judge', 'import', /mixes judge runs/)],
  );
  add(
    'judge-name-mismatch',
    'judge',
    lines(verdict('pw-1', { overall: 'win' })),
    [E(1, 'judge', 'record', /is "judge-hostile", but this file is being imported as the run "expected-run"/)],
    {
      judgeName: 'expected-run',
    },
  );
}

/** Hostile criteria catalogs (JSON arrays), each with the issue path its schema reports. */
export function hostileCatalogs(): { name: string; catalog: unknown; paths: string[] }[] {
  const c = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: id,
    level: 'general',
    description: `About ${id}.`,
    ...extra,
  });
  return [
    { name: 'overall-in-catalog', catalog: [c('coherence'), c('overall')], paths: ['[1].id'] },
    { name: 'duplicate-criterion', catalog: [c('clarity'), c('clarity')], paths: ['[1].id'] },
    { name: 'uppercase-id', catalog: [c('Clarity')], paths: ['[0].id'] },
    { name: 'principle-without-principle', catalog: [c('practice_x', { level: 'principle' })], paths: ['[0].principle'] },
    { name: 'general-with-principle', catalog: [c('clarity', { principle: 'Practice' })], paths: ['[0].principle'] },
    { name: 'not-an-array', catalog: { coherence: c('coherence') }, paths: [''] },
    { name: 'proto-id', catalog: [c('__proto__')], paths: ['[0].id'] },
  ];
}
