import 'server-only';
import { hash, verify } from '@node-rs/argon2';
import { getDb } from '@/db/client';
import * as q from '@/db/queries/users';
import { createUserSchema, type CreateUserInput, passwordSchema, ACCOUNT_ROLES } from '@/lib/validation/accounts';
import { type Actor, type Role } from './actor';
import { audit } from './audit';
import { DomainError, conflict, forbidden, invalid, notFound } from './errors';
import { parseInput } from './parse';

export type UserDto = {
  id: number;
  username: string;
  displayName: string;
  role: Role;
  active: boolean;
  canSignIn: boolean;
  createdAt: string;
};

const FREE_FAILURES = 5;
const MAX_LOCK_MS = 15 * 60_000;
// A hash to verify against when the account does not exist, so both paths cost the same time.
let dummyHash: Promise<string> | undefined;

const toDto = (u: q.UserRow): UserDto => ({
  id: u.id,
  username: u.username,
  displayName: u.displayName,
  role: u.role,
  active: u.active,
  canSignIn: u.passwordHash !== null,
  createdAt: u.createdAt.toISOString(),
});

export const hashPassword = (password: string) => hash(password, { algorithm: 2 /* argon2id */ });

/** Seconds to wait after `failures` consecutive failed sign-ins: none for the first five, then doubling. */
export function lockDurationMs(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_LOCK_MS, 15_000 * 2 ** (failures - FREE_FAILURES));
}

/**
 * Checks a username and password. Throws `throttled` while the account is locked after repeated failures;
 * returns null for wrong credentials, an inactive account or one that cannot sign in.
 */
export async function verifyCredentials(username: string, password: string, now = new Date()) {
  const db = getDb();
  const user = q.findUserByUsername(db, username);
  if (!user || !user.passwordHash) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return null;
  }
  if (user.lockedUntil && user.lockedUntil > now) {
    const seconds = Math.ceil((user.lockedUntil.getTime() - now.getTime()) / 1000);
    throw new DomainError('throttled', `Too many failed sign-ins. Try again in ${seconds} s.`);
  }
  const ok = await verify(user.passwordHash, password).catch(() => false);
  if (!ok) {
    const failures = user.failedSignIns + 1;
    const lock = lockDurationMs(failures);
    q.updateUser(db, user.id, { failedSignIns: failures, lockedUntil: lock ? new Date(now.getTime() + lock) : null });
    audit(db, { userId: user.id, action: 'sign_in_failed', detail: { failures } });
    return null;
  }
  if (!user.active) return null;
  if (user.failedSignIns > 0 || user.lockedUntil) q.updateUser(db, user.id, { failedSignIns: 0, lockedUntil: null });
  return { id: user.id, sessionVersion: user.sessionVersion, name: user.displayName };
}

/** The actor behind a session token, or null when the account is gone, disabled or its sessions were revoked. */
export function loadActor(id: number, sessionVersion: number): Actor | null {
  const user = q.findUserById(getDb(), id);
  if (!user || !user.active || user.sessionVersion !== sessionVersion || !user.passwordHash) return null;
  return { id: user.id, username: user.username, displayName: user.displayName, role: user.role };
}

function requireAdmin(actor: Actor) {
  if (actor.role !== 'admin') throw forbidden('Only an admin can manage accounts.');
}

export function listUsers(actor: Actor): UserDto[] {
  requireAdmin(actor);
  return q.listUsers(getDb()).map(toDto);
}

export async function createUser(actor: Actor, input: unknown): Promise<UserDto> {
  requireAdmin(actor);
  const data: CreateUserInput = parseInput(createUserSchema, input);
  const passwordHash = await hashPassword(data.password);
  const db = getDb();
  if (q.findUserByUsername(db, data.username)) throw conflict(`The username "${data.username}" is taken.`);
  const row = q.insertUser(db, { username: data.username, displayName: data.displayName, role: data.role, passwordHash });
  audit(db, { userId: actor.id, action: 'user_created', objectId: row.id, detail: { username: row.username, role: row.role } });
  return toDto(row);
}

function mustFind(id: number) {
  const user = q.findUserById(getDb(), id);
  if (!user) throw notFound('That account');
  return user;
}

function guardLastAdmin(user: q.UserRow, losesAdmin: boolean) {
  if (losesAdmin && user.role === 'admin' && user.active && q.countActiveAdmins(getDb()) <= 1)
    throw conflict('This is the last active admin; make another admin first.');
}

export function setUserActive(actor: Actor, id: number, active: boolean): UserDto {
  requireAdmin(actor);
  const user = mustFind(id);
  if (!active && user.id === actor.id) throw invalid('You cannot disable your own account.');
  guardLastAdmin(user, !active);
  const db = getDb();
  // Disabling bumps the session version so any open session stops at its next request.
  const row = q.updateUser(db, id, { active, failedSignIns: 0, lockedUntil: null }, !active);
  audit(db, { userId: actor.id, action: active ? 'user_enabled' : 'user_disabled', objectId: id });
  return toDto(row!);
}

export function setUserRole(actor: Actor, id: number, role: unknown): UserDto {
  requireAdmin(actor);
  if (!ACCOUNT_ROLES.includes(role as Role)) throw invalid('Choose admin, lead or annotator.', { role: 'Unknown role' });
  const user = mustFind(id);
  guardLastAdmin(user, role !== 'admin');
  const db = getDb();
  const row = q.updateUser(db, id, { role: role as Role });
  audit(db, { userId: actor.id, action: 'user_role_changed', objectId: id, detail: { from: user.role, to: role } });
  return toDto(row!);
}

export async function resetPassword(actor: Actor, id: number, password: unknown): Promise<UserDto> {
  requireAdmin(actor);
  const pw = parseInput(passwordSchema, password, 'password');
  mustFind(id);
  const passwordHash = await hashPassword(pw);
  const db = getDb();
  const row = q.updateUser(db, id, { passwordHash, failedSignIns: 0, lockedUntil: null }, true);
  audit(db, { userId: actor.id, action: 'user_password_reset', objectId: id });
  return toDto(row!);
}

export type PersonDto = { id: number; username: string; displayName: string; role: Role };

/** Accounts a lead may choose as reviewers: active and able to sign in. */
export function listAssignablePeople(actor: Actor): PersonDto[] {
  if (actor.role !== 'admin' && actor.role !== 'lead') throw forbidden();
  return q
    .listUsers(getDb())
    .filter((u) => u.active && u.passwordHash)
    .map((u) => ({ id: u.id, username: u.username, displayName: u.displayName, role: u.role }));
}
