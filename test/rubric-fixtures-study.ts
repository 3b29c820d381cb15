import { beforeAll } from 'vitest';
import { wilsonInterval } from '@/lib/stats';
import type { Actor } from '@/lib/server/actor';
import { makeUser, useTestDatabase } from './db';
import type { RubricCatalog } from '@/lib/validation/rubric';
import { buildRubricStudy } from './rubric-fixtures-reports';

/*
 * A TEST FIXTURE: the small rubric study the service tests of the rubric reports (lib/server/analytics/rubric-*-report.test.ts)
 * measure, written with buildRubricStudy. The tests compute what they expect from ROWS and JUDGE.
 */

export const CATALOG: RubricCatalog = [
  {
    id: 'mistake_identification',
    name: 'Notices the mistake',
    labels: ['No', 'To some extent', 'Yes'],
    desired: 'Yes',
    lenient: { 'To some extent': 'Yes' },
  },
  { id: 'leak', name: 'Keeps the answer back', labels: ['REJECT', 'OK'], desired: 'OK' },
];
export const MI = 'mistake_identification';
export const Y = 'Yes';
export const S = 'To some extent';
export const N = 'No';

/*
 * Eight replies by two tutors (t1: i1–i4, t2: i5–i8), two reviewers each, under the "adjudicated" rule:
 *
 *   item  alice      bob          ruling     ground truth (MI, leak)
 *   i1    Y  OK      Y  OK                   Y   OK
 *   i2    S  OK      Y  OK        MI = Y     Y   OK    (adjudicated)
 *   i3    N  REJ     N  OK                   —         (leak open: item left out)
 *   i4    N  REJ     N  REJ                  N   REJ
 *   i5    Y  OK      Y  OK                   Y   OK
 *   i6    S  REJ     S  REJ                  S   REJ
 *   i7    Y  OK      N  OK (undone: pending) —         (review pending: left out)
 *   i8    N  OK      Y  OK        MI = N     N   OK    (adjudicated)
 *
 * Judge "gpt", sample 1 (MI, leak): i1 Y OK, i2 S OK, i3 N OK, i4 Y REJ, i5 Y REJ, i6 Y REJ, i7 Y OK, i8 N (no leak);
 * sample 2: Y OK everywhere.
 */
export const ROWS: [string, string, [string, string], [string, string]][] = [
  ['i1', 't1', [Y, 'OK'], [Y, 'OK']],
  ['i2', 't1', [S, 'OK'], [Y, 'OK']],
  ['i3', 't1', [N, 'REJECT'], [N, 'OK']],
  ['i4', 't1', [N, 'REJECT'], [N, 'REJECT']],
  ['i5', 't2', [Y, 'OK'], [Y, 'OK']],
  ['i6', 't2', [S, 'REJECT'], [S, 'REJECT']],
  ['i7', 't2', [Y, 'OK'], [N, 'OK']],
  ['i8', 't2', [N, 'OK'], [Y, 'OK']],
];
export const JUDGE: Record<string, [string, string | null]> = {
  i1: [Y, 'OK'],
  i2: [S, 'OK'],
  i3: [N, 'OK'],
  i4: [Y, 'REJECT'],
  i5: [Y, 'REJECT'],
  i6: [Y, 'REJECT'],
  i7: [Y, 'OK'],
  i8: [N, null],
};

/** Writes the study above (a lead's) and returns its id. */
export function buildReportsStudy(lead: Actor): number {
  const labels = ([mi, leak]: [string, string]) => ({ [MI]: mi, leak });
  return buildRubricStudy(lead, {
    name: 'Rubric reports',
    catalog: CATALOG,
    reviewersPerItem: 2,
    items: ROWS.map(([id, source]) => ({ id, source, group: `dialogue-${source}` })),
    annotations: ROWS.flatMap(([item, , alice, bob]) => [
      { item, annotator: 'alice', labels: labels(alice) },
      { item, annotator: 'bob', labels: labels(bob), pending: item === 'i7' },
    ]),
    rulings: [
      { item: 'i2', dimension: MI, label: Y },
      { item: 'i8', dimension: MI, label: N },
    ],
    judges: [
      {
        name: 'gpt',
        lines: [
          ...Object.entries(JUDGE).map(([item, [mi, leak]]) => ({
            item,
            labels: leak ? { [MI]: mi, leak } : ({ [MI]: mi } as Record<string, string>),
          })),
          ...ROWS.map(([item]) => ({ item, sample: 2, labels: { [MI]: Y, leak: 'OK' } })),
        ],
      },
    ],
  });
}

/** The lead who owns the study, and the study's id: set by useReportsStudy before the file's tests run. */
export let lead: Actor;
export let studyId: number;

/** A test file's own database, with the study above written in it by a lead. */
export function useReportsStudy() {
  useTestDatabase();
  beforeAll(async () => {
    lead = await makeUser('lead', 'lead');
    studyId = buildReportsStudy(lead);
  });
}

/** A 95 % Wilson interval as the reports write it. */
export const wilson = (k: number, n: number) => {
  const w = wilsonInterval(k, n, { level: 0.95 });
  return { method: 'wilson', lower: w.lower, upper: w.upper };
};
