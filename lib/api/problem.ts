/**
 * RFC 9457 problem documents, the body of every refusal of the HTTP API. `type` is a link into the API page, where
 * each kind of problem is explained; `errors` lists every field (or line of a refused file) that was wrong.
 */
import type { ErrorCode } from '@/lib/server/errors';

export type ProblemError = { path: string; message: string; line?: number };
export type Problem = { type: string; title: string; status: number; detail: string; errors?: ProblemError[] };

export const PROBLEM_TITLES: Record<ErrorCode | 'internal' | 'unsupported_media_type', { status: number; title: string }> = {
  invalid: { status: 400, title: 'The request is not valid' },
  unauthenticated: { status: 401, title: 'A valid token is needed' },
  forbidden: { status: 403, title: 'Your role may not do this' },
  not_found: { status: 404, title: 'Not found' },
  conflict: { status: 409, title: 'The request conflicts with the current state' },
  unsupported_media_type: { status: 415, title: 'Unsupported content type' },
  throttled: { status: 429, title: 'Too many requests' },
  internal: { status: 500, title: 'Something went wrong on the server' },
};

export type ProblemKind = keyof typeof PROBLEM_TITLES;

export function problem(kind: ProblemKind, detail: string, errors?: ProblemError[]): Problem {
  const { status, title } = PROBLEM_TITLES[kind];
  return { type: `/docs/api#problem-${kind.replaceAll('_', '-')}`, title, status, detail, ...(errors?.length ? { errors } : {}) };
}

/** `{ "a.b": "message" }` as a use-case's parse reports it, as problem errors. */
export const fieldErrorsToProblemErrors = (fieldErrors: Record<string, string> | undefined): ProblemError[] =>
  Object.entries(fieldErrors ?? {}).map(([path, message]) => ({ path, message }));
