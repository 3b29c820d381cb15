import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { DomainError } from '../errors';
import { exportFlows } from './exports';
import { listPairwiseItems, listRubricItems } from './items';
import { getRubricItem } from './item-dimensions';
import { createStudy, getStudy, setStudyCriteria } from './studies';

// What a kind allows is the kind's to say: who may replace a catalog (a pairwise draft's criteria, yes; a rubric
// study's dimensions never, they are its label sets; a flow review study has none), and a use-case written for one
// kind (its item list, item page, export) refuses the others in words naming both kinds.
useTestDatabase();
let lead: Actor;
beforeAll(async () => {
  lead = await makeUser('cataloglead', 'lead');
});

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'ok';
};

const CRITERION = { id: 'clarity', name: 'Clarity', level: 'general', description: 'Is the reply clear?' };

describe('replacing a study catalog', () => {
  it('replaces a pairwise draft’s criteria', () => {
    const id = createStudy(lead, { kind: 'pairwise', name: 'P' }).id;
    expect(refusal(() => setStudyCriteria(lead, id, [CRITERION]))).toBe('ok');
    expect(getStudy(lead, id).criteria.map((c) => c.id)).toEqual(['clarity']);
  });

  it('refuses, in words, for the kinds whose catalog cannot change', () => {
    const rubric = createStudy(lead, { kind: 'rubric', name: 'R', dimensions: 'ok-reject' }).id;
    expect(refusal(() => setStudyCriteria(lead, rubric, [CRITERION]))).toBe(
      "invalid: A rubric study's dimensions are fixed when it is created (they are its label sets).",
    );
    const flow = createStudy(lead, { kind: 'flow_review', name: 'F' }).id;
    expect(refusal(() => setStudyCriteria(lead, flow, [CRITERION]))).toMatch(/^invalid: A flow review study has no criteria/);
    expect(getStudy(lead, rubric).criteria).toEqual([]);
  });
});

describe('a use-case written for one kind', () => {
  it('refuses a study of another kind, naming both kinds, or as not found for an object only that kind has', () => {
    const pair = createStudy(lead, { kind: 'pairwise', name: 'P2' }).id;
    const flow = createStudy(lead, { kind: 'flow_review', name: 'F2' }).id;
    expect(refusal(() => listRubricItems(lead, pair, {}))).toBe('invalid: This list is for rubric studies; this one is a pairwise study.');
    expect(refusal(() => listPairwiseItems(lead, flow, {}))).toBe(
      'invalid: This list is for pairwise studies; this one is a flow review study.',
    );
    expect(refusal(() => exportFlows(lead, pair, 'flows', 'jsonl'))).toBe(
      'invalid: The flows export is for flow review studies; this one is a pairwise study.',
    );
    expect(refusal(() => getRubricItem(lead, pair, 1))).toBe('not_found: That item was not found.');
  });
});
