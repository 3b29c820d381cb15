'use server';

import { AuthError } from 'next-auth';
import { signIn } from '@/lib/auth/config';
import { safeNextPath } from '@/lib/auth/next-path';

export type SignInState = { error?: string; username?: string };

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
      if (code === 'throttled')
        return { username, error: 'Too many failed sign-ins for this account or from this address. Wait a little and try again.' };
      return { username, error: 'Wrong username or password, or the account is disabled.' };
    }
    throw e; // the redirect after a successful sign-in
  }
}
