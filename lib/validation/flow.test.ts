import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { flowDecisionFor, flowDecisionSchema, flowItemSchema } from './flow';
import { zodIssuesToImportErrors } from './import-errors';

const minimal = { id: 'f-1', problem: { text: 'What is 2 + 3?' }, steps: [{ speaker: 'tutor', text: 'Ask.' }] };

function errorsOf(value: unknown) {
  const r = flowItemSchema.safeParse(value, { reportInput: true });
  if (r.success) throw new Error('expected the flow to be rejected');
  return zodIssuesToImportErrors(7, r.error).map(({ path, message }) => ({ path, message }));
}

describe('flowItemSchema', () => {
  it('accepts a minimal flow and the shipped KMP-style flows', () => {
    expect(flowItemSchema.parse(minimal)).toEqual(minimal);
    const file = path.resolve(__dirname, '../server/demo/seed-data/kmp-style/flows.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(flowItemSchema.safeParse(JSON.parse(line)).success).toBe(true);
  });

  it('turns a numeric answer or grade into text', () => {
    const flow = flowItemSchema.parse({ ...minimal, problem: { text: 'x', answer: 32, grade: 5 } });
    expect(flow.problem.answer).toBe('32');
    expect(flow.problem.grade).toBe('5');
  });

  it('strips unknown keys at every level', () => {
    const flow = flowItemSchema.parse({
      ...minimal,
      model: 'gpt-x',
      problem: { text: 'x', score: 3 },
      steps: [{ speaker: 'tutor', text: 'Ask.', confidence: 0.4 }],
    });
    expect(flow).toEqual({ id: 'f-1', problem: { text: 'x' }, steps: [{ speaker: 'tutor', text: 'Ask.' }] });
  });

  it('accepts a step naming a material the flow does not provide', () => {
    const flow = { ...minimal, steps: [{ speaker: 'tutor', text: 'Show it.', materials: ['M9'] }] };
    expect(flowItemSchema.safeParse(flow).success).toBe(true);
  });

  it('reports missing required fields by path', () => {
    expect(errorsOf({ steps: [] })).toEqual([
      { path: 'id', message: 'is required' },
      { path: 'problem', message: 'is required' },
      { path: 'steps', message: 'must have at least one item' },
    ]);
  });

  it('reports bad steps with their index', () => {
    const bad = {
      ...minimal,
      steps: [
        { speaker: 'tutor', text: 'ok' },
        { speaker: 'tutor', text: '   ' },
        { speaker: 'teacher', text: 'Hi' },
        { speaker: 'student' },
      ],
    };
    expect(errorsOf(bad)).toEqual([
      { path: 'steps[1].text', message: 'must be a non-empty string' },
      { path: 'steps[2].speaker', message: 'must be one of tutor, student' },
      { path: 'steps[3].text', message: 'is required' },
    ]);
  });

  it('checks the id', () => {
    expect(errorsOf({ ...minimal, id: '' })).toEqual([{ path: 'id', message: 'must be a non-empty string' }]);
    expect(errorsOf({ ...minimal, id: 'x'.repeat(201) })).toEqual([{ path: 'id', message: 'must be at most 200 characters long' }]);
    expect(errorsOf({ ...minimal, id: ' f-1' })).toEqual([{ path: 'id', message: 'must not start or end with whitespace' }]);
    expect(errorsOf({ ...minimal, id: 12 })).toEqual([{ path: 'id', message: 'must be a string (got number)' }]);
    expect(flowItemSchema.safeParse({ ...minimal, id: 'x'.repeat(200) }).success).toBe(true);
  });

  it('checks typed optional fields and materials', () => {
    const bad = {
      ...minimal,
      problem: { text: 'x', answer: true, standards: 'NF' },
      materials: [
        { id: 'M1', kind: 'follow_up' },
        { id: 'M2', kind: 'hint', text: 'x' },
        { id: 'M3', kind: 'clarification', turns: [{ role: 'parent', text: 'x' }] },
        { id: 'M1', kind: 'error_analysis', student_solution: 'x', first_error_step: 0 },
      ],
      tutor_persona: null,
    };
    expect(errorsOf(bad)).toEqual([
      { path: 'problem.answer', message: 'must be a string or a number' },
      { path: 'problem.standards', message: 'must be an array (got string)' },
      { path: 'materials[0].text', message: 'is required' },
      { path: 'materials[1].kind', message: 'must be one of follow_up, error_analysis, similar_problem, clarification' },
      { path: 'materials[2].turns[0].role', message: 'must be one of tutor, student' },
      { path: 'materials[3].first_error_step', message: 'must be at least 1' },
      { path: 'tutor_persona', message: 'must be a string (got null)' },
    ]);
  });

  it('rejects two materials with the same id', () => {
    const flow = {
      ...minimal,
      materials: [
        { id: 'M1', kind: 'follow_up', text: 'a' },
        { id: 'M1', kind: 'similar_problem', text: 'b' },
      ],
    };
    expect(errorsOf(flow)).toEqual([{ path: 'materials[1].id', message: "duplicates material id 'M1'" }]);
  });
});

describe('flowDecisionSchema', () => {
  const decisionErrors = (schema: typeof flowDecisionSchema, value: unknown) => {
    const r = schema.safeParse(value, { reportInput: true });
    if (r.success) throw new Error('expected the decision to be rejected');
    return zodIssuesToImportErrors(1, r.error).map(({ path, message }) => ({ path, message }));
  };

  it('accepts the three decisions', () => {
    expect(flowDecisionSchema.parse({ decision: 'verify' })).toEqual({ decision: 'verify' });
    expect(flowDecisionSchema.parse({ decision: 'truncate', afterStep: 3, note: '  tail is chit-chat ' })).toEqual({
      decision: 'truncate',
      afterStep: 3,
      note: 'tail is chit-chat',
    });
    expect(flowDecisionSchema.parse({ decision: 'discard', reasons: ['hallucinated_material', 'other'], note: 'M5 is a diagram' })).toEqual(
      { decision: 'discard', reasons: ['hallucinated_material', 'other'], note: 'M5 is a diagram' },
    );
  });

  it('rejects an unknown decision and bad truncation points', () => {
    expect(decisionErrors(flowDecisionSchema, { decision: 'approve' })).toEqual([
      { path: 'decision', message: 'must be one of verify, truncate, discard' },
    ]);
    expect(decisionErrors(flowDecisionSchema, { decision: 'truncate' })).toEqual([{ path: 'afterStep', message: 'is required' }]);
    expect(decisionErrors(flowDecisionSchema, { decision: 'truncate', afterStep: 0 })).toEqual([
      { path: 'afterStep', message: 'must be at least 1' },
    ]);
    expect(decisionErrors(flowDecisionSchema, { decision: 'truncate', afterStep: 2.5 })[0]).toEqual({
      path: 'afterStep',
      message: 'must be a whole number (got number)',
    });
  });

  it('needs at least one reason, without repeats, from the list', () => {
    expect(decisionErrors(flowDecisionSchema, { decision: 'discard', reasons: [] })).toEqual([
      { path: 'reasons', message: 'must have at least one item' },
    ]);
    expect(decisionErrors(flowDecisionSchema, { decision: 'discard', reasons: ['boring'] })).toEqual([
      {
        path: 'reasons[0]',
        message: 'must be one of hallucinated_material, illogical_sequence, incorrect_math, off_topic, other',
      },
    ]);
    expect(decisionErrors(flowDecisionSchema, { decision: 'discard', reasons: ['off_topic', 'incorrect_math', 'off_topic'] })).toEqual([
      { path: 'reasons[2]', message: "repeats the reason 'off_topic'" },
    ]);
  });

  it("requires a note with 'other', and whitespace is not a note", () => {
    const need = [{ path: 'note', message: "is required when 'other' is among the reasons" }];
    expect(decisionErrors(flowDecisionSchema, { decision: 'discard', reasons: ['other'] })).toEqual(need);
    expect(decisionErrors(flowDecisionSchema, { decision: 'discard', reasons: ['other'], note: ' \n ' })).toEqual(need);
    expect(flowDecisionSchema.safeParse({ decision: 'discard', reasons: ['off_topic'] }).success).toBe(true);
  });

  it('limits notes to 5,000 characters', () => {
    expect(flowDecisionSchema.safeParse({ decision: 'verify', note: 'x'.repeat(5000) }).success).toBe(true);
    expect(decisionErrors(flowDecisionSchema, { decision: 'verify', note: 'x'.repeat(5001) })).toEqual([
      { path: 'note', message: 'must be at most 5000 characters long' },
    ]);
  });

  it('flowDecisionFor keeps truncation strictly inside the flow', () => {
    const six = flowDecisionFor(6);
    expect(six.safeParse({ decision: 'truncate', afterStep: 1 }).success).toBe(true);
    expect(six.safeParse({ decision: 'truncate', afterStep: 5 }).success).toBe(true);
    expect(decisionErrors(six, { decision: 'truncate', afterStep: 6 })).toEqual([
      {
        path: 'afterStep',
        message: 'must be less than the number of steps (6); truncating after the last step keeps the whole flow',
      },
    ]);
    expect(decisionErrors(flowDecisionFor(1), { decision: 'truncate', afterStep: 1 })).toEqual([
      { path: 'afterStep', message: 'cannot truncate a flow with 1 step' },
    ]);
    expect(six.safeParse({ decision: 'verify' }).success).toBe(true);
  });
});
