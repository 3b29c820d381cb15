'use server';

import { AuthError } from 'next-auth';
import { signIn } from '@/lib/auth/config';
import { safeNextPath } from '@/lib/auth/next-path';

export type SignInState = { error?: string; username?: string };

/** "15 seconds", "2 minutes": rounded up, so that trying again after it is never too early. */
function waitFor(seconds: number) {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  const username = String(form.get('username') ?? '')
    .trim()
    .toLowerCase();
  try {
    await signIn('credentials', { username, password: String(form.get('password') ?? ''), redirectTo: safeNextPath(form.get('next')) });
    return {};
  } catch (e) {
    if (e instanceof AuthError) {
      const code = (e as AuthError & { code?: string }).code;
      if (code === 'throttled') {
        const seconds = (e as AuthError & { retryAfterSeconds?: number | null }).retryAfterSeconds ?? null;
        return {
          username,
          error: `Too many failed sign-ins for this account or from this address. ${seconds ? `Wait ${waitFor(seconds)}, then try again.` : 'Wait a little and try again.'}`,
        };
      }
      return { username, error: 'Wrong username or password, or the account is disabled.' };
    }
    throw e; // the redirect after a successful sign-in
  }
}
