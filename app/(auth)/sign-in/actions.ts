'use server';

import { AuthError } from 'next-auth';
import { signIn } from '@/lib/auth/config';

export type SignInState = { error?: string; username?: string };

/** Only same-site paths are followed after sign-in, so a crafted link cannot send people elsewhere. */
function safeNext(value: FormDataEntryValue | null): string {
  const next = typeof value === 'string' ? value : '/';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  const username = String(form.get('username') ?? '')
    .trim()
    .toLowerCase();
  try {
    await signIn('credentials', { username, password: String(form.get('password') ?? ''), redirectTo: safeNext(form.get('next')) });
    return {};
  } catch (e) {
    if (e instanceof AuthError) {
      const code = (e as AuthError & { code?: string }).code;
      if (code === 'throttled')
        return { username, error: 'Too many failed sign-ins for this account or from this address. Wait a little and try again.' };
      return { username, error: 'Wrong username or password, or the account is disabled.' };
    }
    throw e; // the redirect after a successful sign-in
  }
}
