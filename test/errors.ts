import { DomainError } from '@/lib/server/errors';

/** The error code a use-case call fails with, or 'ok'; anything that is not a DomainError is rethrown. */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e.code;
    throw e;
  }
  return 'ok';
}
