import { describe, expect, it } from 'vitest';
import { renderPrompt } from '@/lib/validation/judge-template';
import { combineRulesOf } from './judge-rules';
import { flowKind } from './flow';
import { pairwiseKind } from './pairwise';
import { rubricKind } from './rubric';

// What each kind gives the judge cores: the placeholders an item fills, how an answer is stored, whether the order
// can be swapped, and which combination rules its labels allow (the combine form and the use-case read the same).
const template = { user: '{{problem}}|{{response_1}}|{{response_2}}|{{reply}}|{{history}}' };
const pairItem = { id: 'p', problem: 'P', a: { source: 'x', text: 'A' }, b: { source: 'y', text: 'B' } };
const rubricItem = { id: 'r', problem: 'R', history: [{ role: 'student', text: 'hi' }], reply: { source: 's', text: 'Reply' } };

describe('judges facet', () => {
  it('pairwise: both replies, in the order sent; the answer stored from reply a’s side; both orders', () => {
    const judges = pairwiseKind.judges;
    expect(renderPrompt(template, judges.prompt(pairItem, false))[0].content).toBe('P|A|B||');
    expect(renderPrompt(template, judges.prompt(pairItem, true))[0].content).toBe('P|B|A||');
    expect(judges.stored({ clarity: 'first', overall: 'tie' }, true)).toEqual({ clarity: 'lose', overall: 'tie' });
    expect(judges.stored({ clarity: 'first' }, false)).toEqual({ clarity: 'win' });
    expect(judges.rules.bothOrders).toBe(true);
  });

  it('rubric: the one reply and its history; the answer stored as read; one order', () => {
    const judges = rubricKind.judges;
    expect(renderPrompt(template, judges.prompt(rubricItem, false))[0].content).toBe('R|||Reply|Student: hi');
    expect(judges.stored({ actionability: 'Yes' }, false)).toEqual({ actionability: 'Yes' });
    expect(judges.rules.bothOrders).toBe(false);
  });

  it('combines pairwise runs by majority only, two or more; rubric runs by every rule, one run’s samples too', () => {
    expect(combineRulesOf('pairwise')).toMatchObject({ rules: ['majority'], minimumRuns: 2 });
    expect(combineRulesOf('pairwise')!.refusedRule!('all')).toMatch(/needs a desired label.*majority/);
    expect(combineRulesOf('rubric')).toMatchObject({ rules: ['majority', 'all', 'any'], minimumRuns: 1 });
    expect(combineRulesOf('flow_review')).toBeNull();
    expect(pairwiseKind.judges.rules.combine).toBe(combineRulesOf('pairwise'));
    expect(rubricKind.judges.rules.combine).toBe(combineRulesOf('rubric'));
    expect(flowKind.judges).toBeNull();
  });
});
