import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { DomainError } from '../errors';
import { createStudy, getStudy, setStudyCriteria } from './studies';

// Who may replace a study's catalog is the kind's to say: a pairwise draft's criteria, yes; a rubric study's
// dimensions never (they are its label sets); a flow review study has none.
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
