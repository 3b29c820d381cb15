import { describe, expect, it } from 'vitest';
import { initialRulings, overrules, problemsHint, rulingProblems, type DisputedRow } from './rulings';

// Rows as both kinds send them: pairwise answers are choices, rubric ones labels; a reviewer may have given none.
const rows: DisputedRow<string>[] = [
  { id: 'a', name: 'Accuracy', reviewers: ['A', 'B'], ruling: 'A', rationale: null },
  { id: 'b', name: 'Tone', reviewers: ['Yes', null], ruling: null, rationale: null },
  { id: 'c', name: 'Overall', reviewers: ['tie', 'B'], ruling: 'A', rationale: 'Both missed the error.' },
];

describe('settling a disputed item', () => {
  it('starts from the rulings already made, on the first row still without one', () => {
    expect(initialRulings(rows)).toEqual({ answers: { a: 'A', c: 'A' }, rationales: { c: 'Both missed the error.' }, focus: 1 });
    const all = rows.map((r) => ({ ...r, ruling: 'A' }));
    expect(initialRulings(all).focus).toBe(0);
  });

  it('asks a rationale only of an answer no reviewer gave, and a label of every row', () => {
    expect(overrules(rows[0], 'A')).toBe(false);
    expect(overrules(rows[0], 'tie')).toBe(true);
    expect(overrules(rows[1], null)).toBe(false);
    const s = { answers: { a: 'tie', c: 'A' }, rationales: { a: '   ', c: 'Both missed the error.' }, focus: 0 };
    expect(rulingProblems(rows, s)).toEqual([
      { index: 0, id: 'a', kind: 'rationale', message: 'Explain why you overrule the reviewers.' },
      { index: 1, id: 'b', kind: 'choice', message: 'Choose a final label.' },
    ]);
    expect(rulingProblems(rows, { ...s, answers: { a: 'B', b: 'Yes', c: 'A' } })).toEqual([]);
  });

  it('names how many things are open and what the first one needs, in the same words for every kind', () => {
    const one = rulingProblems(rows, { answers: { a: 'A', c: 'A' }, rationales: { c: 'x' }, focus: 0 });
    expect(problemsHint(rows, one)).toBe('One thing is still open. First: Tone — choose a final label.');
    const two = rulingProblems(rows, { answers: { a: 'tie', c: 'A' }, rationales: { c: 'x' }, focus: 0 });
    expect(problemsHint(rows, two)).toBe('2 things are still open. First: Accuracy — write a rationale (press r to open the field).');
  });
});
