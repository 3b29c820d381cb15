import 'server-only';
import { getDb } from '@/db/client';
import { listStudies, listStudiesForUser } from '@/db/queries/studies';
import { findUserByUsername } from '@/db/queries/users';
import type { Actor } from '../actor';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isDemo } from './accounts';
import type { DemoDto } from './dto';
import { DEMO_STUDIES } from './seed';

/**
 * What this demo database holds, for the sign-in page: each account with the demo studies it works in here, and the
 * demo studies that are not here because their public data was missing when it was seeded. Null when the database
 * is not the demo (a real deployment never lists accounts before sign-in).
 */
export function demoView(): DemoDto | null {
  const db = getDb();
  if (!isDemo(db)) return null;
  const present = new Set(listStudies(db).map((s) => s.name));
  const accounts = DEMO_ACCOUNTS.map(({ username, role, sees }) => {
    const user = findUserByUsername(db, username);
    const studies = user && role === 'annotator' ? listStudiesForUser(db, user.id).map((s) => s.name) : [];
    return { username, role, sees, password: DEMO_PASSWORD, studies };
  });
  const missing = DEMO_STUDIES.filter((s) => !present.has(s.name) && !s.standsInFor).map((s) => s.name);
  return { accounts, studies: DEMO_STUDIES.filter((s) => present.has(s.name)).map((s) => s.name), missing };
}

/**
 * Why a demo account has nothing to do: its demo studies need public data this machine does not have. Null outside
 * the demo, or when nothing of the kind is missing for this person.
 */
export function demoStudiesMissingFor(actor: Actor): string[] | null {
  const db = getDb();
  if (!isDemo(db)) return null;
  const present = new Set(listStudies(db).map((s) => s.name));
  const missing = DEMO_STUDIES.filter(
    (s) => !present.has(s.name) && !s.standsInFor && (s.reviewers.includes(actor.username) || s.adjudicator === actor.username),
  ).map((s) => s.name);
  return missing.length ? missing : null;
}
