import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { annotationLineSchema, applicableCriteria, criteriaCatalogSchema, judgeLineSchema, pairwiseItemSchema } from './pairwise';
import { DEFAULT_CRITERIA } from './default-criteria';
import { DEFAULT_PRINCIPLES } from './labels';
import { zodIssuesToImportErrors } from './import-errors';
import type * as z from 'zod';

function errorsOf(schema: z.ZodType, value: unknown) {
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) throw new Error('expected the value to be rejected');
  return zodIssuesToImportErrors(1, r.error).map(({ path, message }) => ({ path, message }));
}

const item = {
  id: 'kmpd-0042',
  problem: 'What is 3/8 + 1/4?',
  principles: ['Feedback'],
  history: [
    { role: 'tutor', text: 'Walk me through it.' },
    { role: 'student', text: '4/12' },
  ],
  a: { source: 'model-x', text: 'Close — are eighths and quarters the same size?' },
  b: { source: 'reference', text: 'Rewrite 1/4 as 2/8 first.' },
};

describe('pairwiseItemSchema', () => {
  it('accepts an item and the shipped KMP-style pairwise file', () => {
    expect(pairwiseItemSchema.parse(item)).toEqual(item);
    const file = path.resolve(__dirname, '../server/demo/seed-data/kmp-style/pairwise.jsonl');
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(pairwiseItemSchema.safeParse(JSON.parse(line)).success).toBe(true);
  });

  it('defaults history to empty and allows an empty reply text', () => {
    const { history: _omit, ...rest } = item;
    const parsed = pairwiseItemSchema.parse({ ...rest, a: { source: 'm', text: '' } });
    expect(parsed.history).toEqual([]);
    expect(parsed.a.text).toBe('');
  });

  it('reports bad fields by path', () => {
    expect(
      errorsOf(pairwiseItemSchema, {
        ...item,
        principles: ['Feedback', 'Feedback'],
        history: [
          { role: 'teacher', text: 'Hi' },
          { role: 'student', text: '' },
        ],
        a: { text: 'x' },
        b: { source: '', text: 3 },
      }),
    ).toEqual([
      { path: 'principles[1]', message: "repeats the principle 'Feedback'" },
      { path: 'history[0].role', message: 'must be one of tutor, student' },
      { path: 'history[1].text', message: 'must be a non-empty string' },
      { path: 'a.source', message: 'is required' },
      { path: 'b.source', message: 'must be a non-empty string' },
      { path: 'b.text', message: 'must be a string (got number)' },
    ]);
  });
});

describe('criteria catalog', () => {
  const general = { id: 'coherence', name: 'Coherence', level: 'general', description: 'Fits.', aspects: ['a', 'b'] };
  const practice = {
    id: 'practice_difficulty',
    name: 'Difficulty',
    level: 'principle',
    principle: 'Practice',
    description: 'Right level.',
  };

  it('accepts a valid catalog and defaults aspects', () => {
    const parsed = criteriaCatalogSchema.parse([general, practice]);
    expect(parsed[1].aspects).toEqual([]);
  });

  it('requires principle exactly for principle-level criteria', () => {
    expect(errorsOf(criteriaCatalogSchema, [{ ...practice, principle: undefined }])).toEqual([
      { path: '[0].principle', message: "is required when level is 'principle'" },
    ]);
    expect(errorsOf(criteriaCatalogSchema, [{ ...general, principle: 'Practice' }])).toEqual([
      { path: '[0].principle', message: "must be omitted when level is 'general'" },
    ]);
  });

  it('rejects bad, duplicate and reserved ids', () => {
    expect(
      errorsOf(criteriaCatalogSchema, [
        general,
        { ...general, id: 'Coherence' },
        { ...general, id: '9lives' },
        { ...general, name: 'Again' },
        { ...general, id: 'overall' },
      ]),
    ).toEqual([
      {
        path: '[1].id',
        message: 'must start with a lowercase letter and contain only lowercase letters, digits and _',
      },
      {
        path: '[2].id',
        message: 'must start with a lowercase letter and contain only lowercase letters, digits and _',
      },
      { path: '[3].id', message: "duplicates criterion id 'coherence'" },
      {
        path: '[4].id',
        message: "'overall' is reserved: every item always has an overall verdict, so a catalog must not define it",
      },
    ]);
    expect(errorsOf(criteriaCatalogSchema, [{ ...general, level: 'item' }])).toEqual([
      { path: '[0].level', message: 'must be one of general, principle' },
    ]);
  });

  it('applicableCriteria: general, then the item principles, then overall', () => {
    const catalog = criteriaCatalogSchema.parse([
      { ...practice, id: 'practice_a' },
      general,
      { ...practice, id: 'feedback_a', principle: 'Feedback' },
      { ...general, id: 'clarity' },
      { ...practice, id: 'practice_b' },
    ]);
    expect(applicableCriteria(catalog, ['Practice'])).toEqual(['coherence', 'clarity', 'practice_a', 'practice_b', 'overall']);
    expect(applicableCriteria(catalog, [])).toEqual(['coherence', 'clarity', 'overall']);
    expect(applicableCriteria(catalog)).toEqual(['coherence', 'clarity', 'practice_a', 'feedback_a', 'practice_b', 'overall']);
    expect(applicableCriteria([], ['Practice'])).toEqual(['overall']);
  });
});

describe('DEFAULT_CRITERIA', () => {
  it('is a valid catalog of 4 general and 3 criteria for each default principle', () => {
    expect(criteriaCatalogSchema.safeParse(DEFAULT_CRITERIA).success).toBe(true);
    expect(DEFAULT_CRITERIA).toHaveLength(22);
    expect(DEFAULT_CRITERIA.filter((c) => c.level === 'general')).toHaveLength(4);
    for (const p of DEFAULT_PRINCIPLES) {
      expect(
        DEFAULT_CRITERIA.filter((c) => c.level === 'principle' && c.principle === p),
        p,
      ).toHaveLength(3);
    }
  });

  it('gives every criterion one sentence and 2 to 4 aspects', () => {
    for (const c of DEFAULT_CRITERIA) {
      expect(c.aspects.length, c.id).toBeGreaterThanOrEqual(2);
      expect(c.aspects.length, c.id).toBeLessThanOrEqual(4);
      expect(c.description.match(/[.?!](\s|$)/g), c.id).toHaveLength(1);
    }
  });

  it('applies 4 + 3 + overall criteria to an item with one principle', () => {
    expect(applicableCriteria(DEFAULT_CRITERIA, ['Practice'])).toHaveLength(8);
  });
});

describe('annotation and judge lines', () => {
  it('accepts lines and defaults swapped to false', () => {
    expect(annotationLineSchema.parse({ item: 'i1', annotator: 'ann1', labels: { coherence: 'win', overall: 'tie' } })).toEqual({
      item: 'i1',
      annotator: 'ann1',
      labels: { coherence: 'win', overall: 'tie' },
    });
    expect(judgeLineSchema.parse({ item: 'i1', judge: 'gemini', labels: { overall: 'lose' } })).toEqual({
      item: 'i1',
      judge: 'gemini',
      labels: { overall: 'lose' },
      swapped: false,
    });
  });

  it('rejects empty labels, unknown label values and malformed criterion keys', () => {
    expect(errorsOf(annotationLineSchema, { item: 'i1', annotator: 'ann1', labels: {} })).toEqual([
      { path: 'labels', message: 'must contain at least one label' },
    ]);
    expect(errorsOf(judgeLineSchema, { item: 'i1', judge: 'j', labels: { overall: 'better', 'Bad Key': 'win' }, swapped: 'no' })).toEqual([
      { path: 'labels.overall', message: 'must be one of lose, tie, win' },
      {
        path: 'labels["Bad Key"]',
        message: 'is not a valid criterion id (lowercase letters, digits and _, starting with a letter)',
      },
      { path: 'swapped', message: 'must be true or false (got string)' },
    ]);
  });
});
