import { describe, expect, it } from 'vitest';
import type { Label } from '@/lib/validation/labels';
import {
  ASK_RULING,
  MODEL,
  NO_RULING,
  NO_VOTES,
  OPEN,
  UNKNOWN_RULING,
  decide,
  decideLabels,
  needsAdjudication,
  outcomeLabel,
  outcomeProvenance,
  type Decision,
  type GroundTruthRule,
} from './rule';

type Case = [string, GroundTruthRule, (Label | null)[], Label | null, Decision];

const agreed = (label: Label): Decision => ({ label, provenance: 'agreed', needsAdjudication: false });
const majority = (label: Label): Decision => ({ label, provenance: 'majority', needsAdjudication: false });
const adjudicated = (label: Label, needs = true): Decision => ({ label, provenance: 'adjudicated', needsAdjudication: needs });
const open: Decision = { label: null, provenance: null, needsAdjudication: true };
const none: Decision = { label: null, provenance: null, needsAdjudication: false };

const CASES: Case[] = [
  ['2 reviewers agree', 'adjudicated', ['win', 'win'], null, agreed('win')],
  ['2 reviewers agree, a ruling changes nothing', 'adjudicated', ['tie', 'tie'], 'lose', agreed('tie')],
  ['2 reviewers disagree, no ruling', 'adjudicated', ['win', 'lose'], null, open],
  ['2 reviewers disagree, ruled', 'adjudicated', ['win', 'lose'], 'tie', adjudicated('tie')],
  ['2 reviewers disagree under majority: no majority of two', 'majority', ['win', 'lose'], null, open],
  ['2 reviewers disagree under majority, ruled', 'majority', ['win', 'lose'], 'win', adjudicated('win')],
  ['3 reviewers, 2 to 1, adjudicated rule: still needs a ruling', 'adjudicated', ['win', 'win', 'tie'], null, open],
  ['3 reviewers, 2 to 1, adjudicated rule, ruled', 'adjudicated', ['win', 'win', 'tie'], 'tie', adjudicated('tie')],
  ['3 reviewers, 2 to 1, majority rule', 'majority', ['win', 'tie', 'win'], null, majority('win')],
  ['3 reviewers, 2 to 1, majority rule: a ruling still wins', 'majority', ['win', 'tie', 'win'], 'tie', adjudicated('tie', false)],
  ['3 reviewers, no majority, majority rule', 'majority', ['win', 'tie', 'lose'], null, open],
  ['3 reviewers, no majority, majority rule, ruled', 'majority', ['win', 'tie', 'lose'], 'lose', adjudicated('lose')],
  ['3 reviewers agree', 'majority', ['lose', 'lose', 'lose'], null, agreed('lose')],
  ['a missing vote: the others agree', 'adjudicated', ['win', null, 'win'], null, agreed('win')],
  ['a missing vote: the majority is of the votes given', 'majority', ['win', null, 'win', 'tie'], null, majority('win')],
  ['a missing vote: one each is no majority', 'majority', ['win', null, 'tie'], null, open],
  ['no votes at all', 'adjudicated', [null, null], null, none],
  ['no votes at all, with a ruling', 'majority', [null, null, null], 'win', none],
  ['no reviewers', 'adjudicated', [], null, none],
];

describe('the ground-truth rule', () => {
  it.each(CASES)('%s (%s)', (_name, rule, labels, ruling, expected) => {
    expect(decideLabels(labels, ruling, rule)).toEqual(expected);
  });

  it('decides on codes in place, at any offset, ignoring what is not a label', () => {
    const votes = new Int8Array([2, 2, -1, 0, 1, 1, 1, 7]);
    expect(outcomeLabel(decide(votes, 0, 2, NO_RULING, 'adjudicated'))).toBe(2);
    expect(outcomeProvenance(decide(votes, 0, 2, NO_RULING, 'adjudicated'))).toBe('agreed');
    expect(decide(votes, 2, 3, NO_RULING, 'adjudicated')).toBe(OPEN);
    expect(outcomeProvenance(decide(votes, 3, 3, NO_RULING, 'majority'))).toBe('majority');
    expect(outcomeLabel(decide(votes, 3, 3, NO_RULING, 'majority'))).toBe(1);
    expect(outcomeProvenance(decide(votes, 5, 3, NO_RULING, 'majority'))).toBe('agreed');
    expect(decide(votes, 2, 1, NO_RULING, 'majority')).toBe(NO_VOTES);
  });

  it('asks for the ruling only when it would decide', () => {
    const votes = [0, 0, 2];
    expect(outcomeProvenance(decide(votes, 0, 2, UNKNOWN_RULING, 'adjudicated'))).toBe('agreed');
    expect(decide(votes, 0, 3, UNKNOWN_RULING, 'adjudicated')).toBe(ASK_RULING);
    // Under the majority rule a ruling still takes precedence over the majority, so it is asked for too.
    expect(decide(votes, 0, 3, UNKNOWN_RULING, 'majority')).toBe(ASK_RULING);
    expect(decide([], 0, 0, UNKNOWN_RULING, 'majority')).toBe(NO_VOTES);
    expect(needsAdjudication(ASK_RULING)).toBe(false);
    expect(outcomeLabel(ASK_RULING)).toBe(-1);
  });

  it('decides a rubric dimension on its own label set, whatever its size', () => {
    // Four labels (codes 0–3): a label code above 2 is a vote, one at or above the set's size is not.
    expect(outcomeLabel(decide([3, 3], 0, 2, NO_RULING, 'adjudicated', 4))).toBe(3);
    expect(decide([3, 2], 0, 2, NO_RULING, 'adjudicated', 4)).toBe(OPEN);
    expect(outcomeLabel(decide([3, 2], 0, 2, 2, 'adjudicated', 4))).toBe(2);
    expect(outcomeProvenance(decide([3, 2], 0, 2, 2, 'adjudicated', 4))).toBe('adjudicated');
    expect(outcomeLabel(decide([3, 3, 0], 0, 3, NO_RULING, 'majority', 4))).toBe(3);
    expect(outcomeLabel(decide([15, 15], 0, 2, NO_RULING, 'adjudicated', 16))).toBe(15);
    expect(decide([4, 4], 0, 2, NO_RULING, 'adjudicated', 4)).toBe(NO_VOTES);
    // Two labels (OK / REJECT): a split of two has no majority.
    expect(decide([0, 1], 0, 2, NO_RULING, 'majority', 2)).toBe(OPEN);
    expect(needsAdjudication(decide([0, 1], 0, 2, 1, 'majority', 2))).toBe(true);
  });

  it('leaves every item with votes to the label model under dawid_skene and mace, unless ruled', () => {
    for (const rule of ['dawid_skene', 'mace'] as const) {
      // Unanimous or split: the model fitted on the whole study decides, and nothing waits for an adjudicator.
      expect(decide([2, 2, 2], 0, 3, NO_RULING, rule)).toBe(MODEL);
      expect(decide([2, 0, 1], 0, 3, NO_RULING, rule)).toBe(MODEL);
      expect(needsAdjudication(MODEL)).toBe(false);
      expect(outcomeLabel(MODEL)).toBe(-1);
      // A ruling overrides the model, also on a unanimous item; it is asked for whenever there are votes.
      expect(decide([2, 2], 0, 2, UNKNOWN_RULING, rule)).toBe(ASK_RULING);
      expect(outcomeLabel(decide([2, 2], 0, 2, 0, rule))).toBe(0);
      expect(outcomeProvenance(decide([2, 2], 0, 2, 0, rule))).toBe('adjudicated');
      expect(needsAdjudication(decide([2, 0], 0, 2, 0, rule))).toBe(false);
      expect(decide([-1, -1], 0, 2, NO_RULING, rule)).toBe(NO_VOTES);
    }
  });
});
