import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The API token a request came through, for the length of that request. The audit log reads it so that every change
 * made with a token names the token, without each of the use-cases (which do not know how they were called) passing
 * it along.
 */
const context = new AsyncLocalStorage<{ tokenId: number }>();

export function withToken<T>(tokenId: number, fn: () => T): T {
  return context.run({ tokenId }, fn);
}

export const currentTokenId = (): number | null => context.getStore()?.tokenId ?? null;
