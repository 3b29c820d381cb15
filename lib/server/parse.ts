import { z } from 'zod';
import { invalid } from './errors';

/** Parses untrusted input or throws an `invalid` DomainError with one message per field path. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, field?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : (field ?? '_');
    fieldErrors[key] ??= issue.message;
  }
  const summary = Object.entries(fieldErrors)
    .map(([k, v]) => (k === '_' ? v : `${k}: ${v}`))
    .join(' ');
  throw invalid(summary || 'The input is not valid.', fieldErrors);
}
