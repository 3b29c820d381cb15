import { describe, expect, it } from 'vitest';
import { flowRecords } from '@/lib/kinds/flow/records';
import { publicDataPath } from '../public-data';
import type { FlowItem } from '@/lib/validation/flow';
import { finalAnswer, mathdialFlowId, mathdialSteps } from './mathdial';

describe('MathDial test split → flows', () => {
  const results = Array.from(flowRecords(publicDataPath('mathdial', 'test.jsonl'), 'mathdial'));
  const flows = results.flatMap((r) => (r.ok ? [r.value] : []));
  const byLine = new Map(results.map((r) => [r.line, r] as const));
  const flowOnLine = (line: number): FlowItem => {
    const r = byLine.get(line);
    if (!r?.ok) throw new Error(`line ${line} did not convert`);
    return r.value;
  };

  it('converts all 599 lines, with unique ids', () => {
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(flows).toHaveLength(599);
    expect(new Set(flows.map((f) => f.id)).size).toBe(599);
    // 394 distinct problems; later conversations about the same one get a suffix.
    expect(flows.filter((f) => /^mathdial-\d+$/.test(f.id))).toHaveLength(394);
  });

  it('converts the first line exactly', () => {
    const f = flowOnLine(1);
    expect(f.id).toBe('mathdial-6000025');
    expect(f.problem.text).toMatch(/^Julia was preparing for a dinner party/);
    expect(f.problem.solution).toMatch(/15-5=10 spoons\.\n 10$/);
    expect(f.problem.answer).toBe('10');
    expect(f.materials).toEqual([
      {
        id: 'M1',
        kind: 'error_analysis',
        student_solution: expect.stringMatching(/^Let's call the number of spoons Julia bought "x"/),
        feedback: 'subtracting instead of adding',
      },
    ]);
    expect(f.student_profile).toMatch(/^Mariana is a 7th grade student\./);
    expect(f.steps).toHaveLength(8);
    expect(f.steps[0]).toEqual({ speaker: 'tutor', text: 'Hi Mariana, please talk me through your solution', principles: [] });
    expect(f.steps[1].speaker).toBe('student');
    expect(f.steps[2].principles).toEqual(['Questioning']);
    expect(f.steps[2].text).toMatch(/^Okay - {2}you've overcomplicated this\./);
    expect(f.steps[4]).toEqual({
      speaker: 'tutor',
      text: 'No, you need to add as she still has the spoons, 3 have just been used',
      principles: ['Explanation'],
    });
    expect(f.steps[7]).toEqual({ speaker: 'student', text: 'So Julia bought a package of 10 spoons.' });
  });

  it("reads student turns labelled with the student's name", () => {
    const f = flowOnLine(5);
    expect(f.student_profile).toMatch(/^Cody /);
    expect(f.steps[1].speaker).toBe('student');
    expect(f.steps[1].text).toMatch(/^Sure\. I started by figuring out how much money Billy had left/);
  });

  it('drops teacher turns that hold only a move tag', () => {
    // Line 479 has 16 turns, five of them a bare "(focus)" or "(probing)".
    expect(flowOnLine(479).steps).toHaveLength(11);
  });

  it('maps teacher moves to principles across the whole split', () => {
    const tutor = flows.flatMap((f) => f.steps.filter((s) => s.speaker === 'tutor'));
    const count = (p: string) => tutor.filter((s) => s.principles?.includes(p)).length;
    expect(tutor).toHaveLength(3686);
    expect(count('Questioning')).toBe(1252 + 947); // focus + probing
    expect(count('Explanation')).toBe(597); // telling
    expect(tutor.filter((s) => s.principles?.length === 0)).toHaveLength(890); // generic
    expect(flows.flatMap((f) => f.steps.filter((s) => s.speaker === 'student'))).toHaveLength(3329);
    expect(tutor.some((s) => /^\((generic|focus|probing|telling)\)/.test(s.text))).toBe(false);
    expect(flows.every((f) => f.steps.every((s) => s.materials === undefined))).toBe(true);
  });

  it('takes thousands-separated final answers as plain numbers', () => {
    const answers = new Set(flows.map((f) => f.problem.answer));
    expect(answers.has('2520000')).toBe(true);
    expect(answers.has('55000')).toBe(true);
    expect(flows.every((f) => f.problem.answer !== undefined && /^-?\d+(\.\d+)?$/.test(f.problem.answer))).toBe(true);
  });
});

describe('MathDial helpers', () => {
  it('finalAnswer prefers the number after the last ####', () => {
    expect(finalAnswer('3 + 4 = 7\n#### 7')).toBe('7');
    expect(finalAnswer('#### 2\nthen 5 + 5 = 10\n#### $1,250')).toBe('1250');
    expect(finalAnswer('She pays $4015 / 5 = $803.\n 803')).toBe('803');
    expect(finalAnswer('no numbers')).toBeNull();
  });

  it('mathdialFlowId suffixes repeated problems only', () => {
    expect(mathdialFlowId(6000025, 1)).toBe('mathdial-6000025');
    expect(mathdialFlowId(6000025, 3)).toBe('mathdial-6000025-3');
  });

  it('mathdialSteps rejects turns it cannot attribute', () => {
    expect(() => mathdialSteps('Teacher: (focus)Hi|EOM|Parent: hello', 'Ann')).toThrow(/turn 2 has an unknown speaker "Parent"/);
    expect(() => mathdialSteps('hello there', 'Ann')).toThrow(/turn 1 does not start with a speaker/);
    expect(() => mathdialSteps('Teacher: (probing)|EOM|Student:  ', 'Ann')).toThrow(/has no non-empty turns/);
    expect(mathdialSteps('Teacher: (telling)It is 4.|EOM|Ann: ok', 'Ann')).toEqual([
      { speaker: 'tutor', text: 'It is 4.', principles: ['Explanation'] },
      { speaker: 'student', text: 'ok' },
    ]);
  });
});
