/**
 * Writes a small rubric study into the end-to-end database with the reports' test fixture
 * (test/rubric-fixtures-reports.ts) and prints its id. Run: CONCORD_DB=… npx tsx e2e/support/make-rubric-study.ts
 * Eight replies by two tutors, two reviewers each (the demo's ann1 and ann2), one ruling, one reply left open, a
 * judge run "gpt" with two samples — the study of test/rubric-fixtures-study.ts — and two replies only
 * the judge labelled.
 */
import { closeDb, getDb } from '@/db/client';
import { findUserByUsername } from '@/db/queries/users';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';

const MI = 'mistake_identification';
const ROWS: [string, string, [string, string], [string, string]][] = [
  ['i1', 't1', ['Yes', 'OK'], ['Yes', 'OK']],
  ['i2', 't1', ['To some extent', 'OK'], ['Yes', 'OK']],
  ['i3', 't1', ['No', 'REJECT'], ['No', 'OK']],
  ['i4', 't1', ['No', 'REJECT'], ['No', 'REJECT']],
  ['i5', 't2', ['Yes', 'OK'], ['Yes', 'OK']],
  ['i6', 't2', ['To some extent', 'REJECT'], ['To some extent', 'REJECT']],
  ['i7', 't2', ['Yes', 'OK'], ['No', 'OK']],
  ['i8', 't2', ['No', 'OK'], ['Yes', 'OK']],
];
const JUDGE: Record<string, [string, string | null]> = {
  i1: ['Yes', 'OK'],
  i2: ['To some extent', 'OK'],
  i3: ['No', 'OK'],
  i4: ['Yes', 'REJECT'],
  i5: ['Yes', 'REJECT'],
  i6: ['Yes', 'REJECT'],
  i7: ['Yes', 'OK'],
  i8: ['No', null],
};

const leadRow = findUserByUsername(getDb(), 'lead')!;
const lead = { id: leadRow.id, username: leadRow.username, displayName: leadRow.displayName, role: leadRow.role };
const labels = ([mi, leak]: [string, string]) => ({ [MI]: mi, leak });
const id = buildRubricStudy(lead, {
  name: 'Rubric dashboards (e2e)',
  catalog: [
    { id: MI, name: 'Notices the mistake', labels: ['No', 'To some extent', 'Yes'], desired: 'Yes', lenient: { 'To some extent': 'Yes' } },
    { id: 'leak', name: 'Keeps the answer back', labels: ['REJECT', 'OK'], desired: 'OK' },
  ],
  reviewersPerItem: 2,
  // i9 and i10 only the judge has labelled: the hybrid plan's queue has replies to send to people.
  items: [...ROWS.map(([item, source]) => ({ id: item, source })), { id: 'i9', source: 't1' }, { id: 'i10', source: 't2' }],
  annotations: ROWS.flatMap(([item, , a, b]) => [
    { item, annotator: 'ann1', labels: labels(a) },
    { item, annotator: 'ann2', labels: labels(b), pending: item === 'i7' },
  ]),
  rulings: [
    { item: 'i2', dimension: MI, label: 'Yes' },
    { item: 'i8', dimension: MI, label: 'No' },
  ],
  judges: [
    {
      name: 'gpt',
      lines: [
        ...Object.entries(JUDGE).map(([item, [mi, leak]]) => ({
          item,
          labels: leak ? { [MI]: mi, leak } : ({ [MI]: mi } as Record<string, string>),
        })),
        ...ROWS.map(([item]) => ({ item, sample: 2, labels: { [MI]: 'Yes', leak: 'OK' } })),
        { item: 'i9', labels: { [MI]: 'No' } },
        { item: 'i10', labels: { [MI]: 'Yes' } },
      ],
    },
  ],
});
closeDb();
process.stdout.write(`${id}\n`);
