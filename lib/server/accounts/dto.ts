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
