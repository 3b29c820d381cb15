import 'server-only';
import { getDb } from '@/db/client';
import * as q from '@/db/queries/users';
import type { Actor } from '../actor';

/** The account the command line acts as. */
export const CLI_USERNAME = 'concord-cli';

/**
 * The actor for the command line, which runs with direct access to the database file and so is trusted as an
 * admin. It is an account without a password: it appears in audit entries but can never sign in.
 */
export function cliActor(): Actor {
  const db = getDb();
  const row =
    q.findUserByUsername(db, CLI_USERNAME) ??
    q.insertUser(db, { username: CLI_USERNAME, displayName: 'Command line', role: 'admin', passwordHash: null, active: false });
  return { id: row.id, username: row.username, displayName: row.displayName, role: 'admin' };
}

/**
 * Whether `actor` is the command line's account: the one without a password, which no web session can carry. A
 * setting only the server's operator may give (a judge endpoint URL named directly) is refused to anyone else.
 */
export function isCommandLine(actor: Actor): boolean {
  const row = q.findUserById(getDb(), actor.id);
  return row?.username === CLI_USERNAME && row.passwordHash === null;
}
