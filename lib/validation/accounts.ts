import { z } from 'zod';
// Before any schema is built: in the browser, zod must not try `new Function` (see common.ts).
import './common';

export const ACCOUNT_ROLES = ['admin', 'lead', 'annotator'] as const;

export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._-]{1,63}$/, {
    error: 'Use 2–64 characters: lowercase letters, digits, dot, dash or underscore, starting with a letter or digit.',
  });

export const passwordSchema = z.string().min(8, { error: 'Use at least 8 characters.' }).max(200, { error: 'Use at most 200 characters.' });

export const createUserSchema = z.object({
  username: usernameSchema,
  displayName: z.string().trim().min(1, { error: 'Enter a name.' }).max(100),
  password: passwordSchema,
  role: z.enum(ACCOUNT_ROLES, { error: 'Choose admin, lead or annotator.' }),
});
export type CreateUserInput = z.infer<typeof createUserSchema>;

export const signInSchema = z.object({
  username: z.string().trim().toLowerCase().min(1).max(64),
  password: z.string().min(1).max(200),
});
