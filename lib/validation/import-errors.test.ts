import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { formatIssuePath, issueMessage, zodIssuesToImportErrors } from './import-errors';

describe('formatIssuePath', () => {
  it('writes JSON-style paths', () => {
    expect(formatIssuePath(['steps', 2, 'speaker'])).toBe('steps[2].speaker');
    expect(formatIssuePath([0, 'id'])).toBe('[0].id');
    expect(formatIssuePath(['labels', 'a b'])).toBe('labels["a b"]');
    expect(formatIssuePath([])).toBe('');
  });
});

describe('zodIssuesToImportErrors', () => {
  const schema = z.object({
    name: z.string().min(1),
    tags: z.array(z.string()).min(2).max(3),
    count: z.int().min(0).max(10),
    ratio: z.number().gt(0),
    kind: z.literal('x'),
    code: z.string().regex(/^[A-Z]+$/),
  });

  it('puts every issue on the given line with a plain English message', () => {
    const r = schema.safeParse(
      { name: '', tags: ['a', 'b', 'c', 'd'], count: 11, ratio: 0, kind: 'y', code: 'abc' },
      { reportInput: true },
    );
    expect(r.success).toBe(false);
    expect(zodIssuesToImportErrors(5, r.error!)).toEqual([
      { line: 5, path: 'name', message: 'must be a non-empty string' },
      { line: 5, path: 'tags', message: 'must have at most 3 items' },
      { line: 5, path: 'count', message: 'must be at most 10' },
      { line: 5, path: 'ratio', message: 'must be greater than 0' },
      { line: 5, path: 'kind', message: 'must be "x"' },
      { line: 5, path: 'code', message: 'must match the pattern ^[A-Z]+$' },
    ]);
  });

  it('says "is required" for missing fields also when the parse did not report inputs', () => {
    const r = schema.safeParse({ tags: ['a'] });
    const errors = zodIssuesToImportErrors(2, r.error!);
    expect(errors[0]).toEqual({ line: 2, path: 'name', message: 'is required' });
    expect(errors[1]).toEqual({ line: 2, path: 'tags', message: 'must have at least 2 items' });
    expect(errors.filter((e) => e.message === 'is required').map((e) => e.path)).toEqual(['name', 'count', 'ratio', 'code']);
    // Without the input, a missing literal cannot be told from a wrong one.
    expect(errors.find((e) => e.path === 'kind')?.message).toBe('must be "x"');
  });

  it('names the allowed values of a missing enum when inputs are reported', () => {
    const r = z.object({ role: z.enum(['tutor', 'student']) }).safeParse({}, { reportInput: true });
    expect(zodIssuesToImportErrors(1, r.error!)).toEqual([{ line: 1, path: 'role', message: 'is required: one of tutor, student' }]);
  });

  it('describes a wrong type and the value received', () => {
    const r = z.object({ a: z.array(z.string()), b: z.object({}) }).safeParse({ a: null, b: [] }, { reportInput: true });
    expect(zodIssuesToImportErrors(1, r.error!).map((e) => e.message)).toEqual([
      'must be an array (got null)',
      'must be an object (got a list)',
    ]);
  });

  it('reports a record that is not an object at the root', () => {
    const r = schema.safeParse('hello', { reportInput: true });
    expect(zodIssuesToImportErrors(9, r.error!)).toEqual([{ line: 9, path: '', message: 'must be an object (got string)' }]);
  });

  it('names unknown keys of strict objects and keeps custom messages', () => {
    const r = z.strictObject({ a: z.string().refine((s) => s === 'ok', { error: 'must be ok' }) }).safeParse({ a: 'no', b: 1, c: 2 });
    expect(r.error!.issues.map(issueMessage)).toEqual(['must be ok', 'has unknown fields b, c']);
  });
});
