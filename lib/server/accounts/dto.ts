/** The data lib/server/accounts hands to pages, components, lib/query, lib/io and the CLI: plain types, no server code. */
import type { Role } from '../actor';

export type UserDto = {
  id: number;
  username: string;
  displayName: string;
  role: Role;
  active: boolean;
  canSignIn: boolean;
  createdAt: string;
};

export type PersonDto = { id: number; username: string; displayName: string; role: Role };

/** A personal access token as its owner and the admins see it: never the secret, which is shown once at creation. */
export type ApiTokenDto = {
  id: number;
  name: string;
  username: string;
  /** The secret's last four characters, to tell tokens apart. */
  last4: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** `active`, or why the token no longer works. */
  state: 'active' | 'expired' | 'revoked';
};

/** What creating a token answers: the only time the secret is shown. */
export type NewApiTokenDto = { id: number; token: string; expiresAt: string; name: string; username: string };
