import 'server-only';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { Actor } from '@/lib/server/actor';
import { signInAgain } from '@/lib/server/errors';
import { loadActor } from '@/lib/server/accounts/users';
import { sessionFromCookies } from './session';

/** The signed-in actor, re-read from the database (role, active flag and session version), or null. */
export const currentActor = cache(async (): Promise<Actor | null> => {
  const session = await sessionFromCookies((await cookies()).getAll());
  if (!session) return null;
  return loadActor(session.uid, session.sv);
});

/** For pages: sends the signed-out to the sign-in page. */
export async function requireUserPage(): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) redirect('/sign-in');
  return actor;
}

/** For actions and routes: throws an `unauthenticated` DomainError. */
export async function requireUser(): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) throw signInAgain();
  return actor;
}
