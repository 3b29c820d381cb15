/** Expected failures of a use-case: callers map them to a message, a status code or an exit code. */
export type ErrorCode = 'unauthenticated' | 'forbidden' | 'not_found' | 'invalid' | 'conflict' | 'throttled';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: Record<string, string>,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string) => new DomainError('not_found', `${what} was not found.`);
export const forbidden = (message = 'You do not have access to this.') => new DomainError('forbidden', message);
export const invalid = (message: string, fieldErrors?: Record<string, string>, details?: unknown) =>
  new DomainError('invalid', message, fieldErrors, details);
export const conflict = (message: string) => new DomainError('conflict', message);
/** The session is gone: expired, ended, or its account disabled. */
export const signInAgain = () => new DomainError('unauthenticated', 'Please sign in again.');

export const HTTP_STATUS: Record<ErrorCode, number> = {
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  invalid: 400,
  conflict: 409,
  throttled: 429,
};
