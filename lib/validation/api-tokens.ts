import { z } from 'zod';
// Before any schema is built: in the browser, zod must not try `new Function` (see common.ts).
import './common';
import { usernameSchema } from './accounts';

/** A token lives 90 days unless its maker says otherwise, and never more than a year. */
export const TOKEN_DEFAULT_DAYS = 90;
export const TOKEN_MAX_DAYS = 365;

export const createTokenSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: 'Give the token a name, so you can tell it apart later.' })
    .max(100, { error: 'Use at most 100 characters.' }),
  expiresInDays: z.coerce
    .number({ error: 'Give the days as a whole number.' })
    .int({ error: 'Give the days as a whole number.' })
    .min(1, { error: 'A token lives at least 1 day.' })
    .max(TOKEN_MAX_DAYS, { error: `A token lives at most ${TOKEN_MAX_DAYS} days.` })
    .default(TOKEN_DEFAULT_DAYS),
  /** Whose token: the caller's own when absent; only an admin may name someone else. */
  username: usernameSchema.optional(),
});
export type CreateTokenInput = z.input<typeof createTokenSchema>;

/** `90d`, `90` or `1y` on the command line. */
export function parseExpiry(text: string): number | null {
  const m = /^(\d{1,4})\s*(d|y)?$/i.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * (m[2]?.toLowerCase() === 'y' ? 365 : 1);
}
