import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { flowItemSchema, type FlowItem } from './flow';
import { flowWarnings } from './flow-warnings';
import { answerNumber, normalizeNumberToken, numberTokens, textGivesAnswer } from './answer-match';

const shipped = path.resolve(__dirname, '../server/demo/seed-data/kmp-style/flows.jsonl');
const kmp = new Map<string, FlowItem>(
  fs
    .readFileSync(shipped, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => flowItemSchema.parse(JSON.parse(line)))
    .map((f) => [f.id, f]),
);
const flow = (id: string) => {
  const f = kmp.get(id);
  if (!f) throw new Error(`${id} missing from ${shipped}`);
  return f;
};

describe('flowWarnings on the KMP-style flows', () => {
  it('flags M5 in flow 002 as unknown material', () => {
    expect(flowWarnings(flow('kmp-style-002'))).toEqual([
      {
        step: 3,
        kind: 'unknown_material',
        material: 'M5',
        message: 'Step 3 uses M5, which this flow does not provide.',
      },
    ]);
  });

  it('flags the follow-up posed before the answer in flow 003', () => {
    expect(flowWarnings(flow('kmp-style-003'))).toEqual([
      {
        step: 2,
        kind: 'early_follow_up',
        material: 'M1',
        message: 'Step 2 uses M1 (a follow-up problem) before the student has given the answer to the main problem (12).',
      },
    ]);
  });

  it('finds nothing in the sound flows 001 and 005', () => {
    expect(flowWarnings(flow('kmp-style-001'))).toEqual([]);
    expect(flowWarnings(flow('kmp-style-005'))).toEqual([]);
  });
});

describe('flowWarnings rules', () => {
  const base: FlowItem = {
    id: 'w',
    problem: { text: 'A book has 1,200 pages …', answer: '1200' },
    materials: [
      { id: 'F', kind: 'follow_up', text: 'Next?' },
      { id: 'S', kind: 'similar_problem', text: 'Another?' },
      { id: 'E', kind: 'error_analysis', student_solution: '…' },
    ],
    steps: [],
  };
  const withSteps = (steps: FlowItem['steps'], answer: string | null = '1200') =>
    flowWarnings({ ...base, problem: { text: base.problem.text, ...(answer === null ? {} : { answer }) }, steps });

  it('flags a similar problem used before the answer, but not other material kinds', () => {
    const w = withSteps([
      { speaker: 'tutor', text: 'Look at your work.', materials: ['E'] },
      { speaker: 'tutor', text: 'Try this one.', materials: ['S'] },
    ]);
    expect(w.map((x) => [x.step, x.kind, x.material])).toEqual([[2, 'early_follow_up', 'S']]);
    expect(w[0].message).toContain('(a similar problem)');
  });

  it('counts only student steps as giving the answer, with number normalisation', () => {
    const tutorSays = withSteps([
      { speaker: 'tutor', text: 'The answer is 1200.' },
      { speaker: 'tutor', text: 'Next one.', materials: ['F'] },
    ]);
    expect(tutorSays).toHaveLength(1);
    const studentSays = withSteps([
      { speaker: 'student', text: 'I get $1,200.00.' },
      { speaker: 'tutor', text: 'Next one.', materials: ['F'] },
    ]);
    expect(studentSays).toEqual([]);
  });

  it('does not take a longer number containing the answer for the answer', () => {
    const w = withSteps([
      { speaker: 'student', text: 'I think it is 12000 or 120.' },
      { speaker: 'tutor', text: 'Next one.', materials: ['F'] },
    ]);
    expect(w.map((x) => x.kind)).toEqual(['early_follow_up']);
  });

  it('skips the ordering check when the answer is unknown, but still checks names', () => {
    const w = withSteps(
      [
        { speaker: 'tutor', text: 'Next one.', materials: ['F'] },
        { speaker: 'tutor', text: 'And this.', materials: ['Z'] },
      ],
      null,
    );
    expect(w.map((x) => [x.step, x.kind])).toEqual([[2, 'unknown_material']]);
  });
});

describe('answer matching', () => {
  it('normalises number tokens', () => {
    expect(normalizeNumberToken('$1,200.50')).toBe('1200.5');
    expect(normalizeNumberToken('12.0')).toBe('12');
    expect(normalizeNumberToken('007')).toBe('7');
    expect(normalizeNumberToken('-0.0')).toBe('0');
    expect(normalizeNumberToken('5/8')).toBe('5/8');
  });

  it('finds whole number tokens only', () => {
    expect(numberTokens('Adds 3/8 + 2/8 = 5/8.')).toEqual(['3/8', '2/8', '5/8']);
    expect(numberTokens('180-15 = 165, so 2,520,000 or 3, 4')).toEqual(['180', '15', '165', '2520000', '3', '4']);
    expect(numberTokens('page M12 of x2')).toEqual([]);
  });

  it('reads the answer as one number when it is one', () => {
    expect(answerNumber('\\boxed{12}')).toBe('12');
    expect(answerNumber('12 days')).toBe('12');
    expect(answerNumber('between 3 and 4')).toBeNull();
    expect(answerNumber('a pentagon')).toBeNull();
  });

  it('matches a fraction literally and words as whole words', () => {
    expect(textGivesAnswer('Says two eighths, adds 3/8 + 2/8 = 5/8.', '5/8')).toBe(true);
    expect(textGivesAnswer('Gets 10/16.', '5/8')).toBe(false);
    expect(textGivesAnswer('It is a Pentagon!', 'pentagon')).toBe(true);
    expect(textGivesAnswer('pentagons everywhere', 'pentagon')).toBe(false);
  });
});
