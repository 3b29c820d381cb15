import 'server-only';
import { hash, verify } from '@node-rs/argon2';
import { getDb, inTransaction } from '@/db/client';
import * as q from '@/db/queries/users';
import { createUserSchema, type CreateUserInput, passwordSchema, ACCOUNT_ROLES } from '@/lib/validation/accounts';
import { type Actor, type Role } from '../actor';
import { audit } from './audit';
import { DomainError, conflict, forbidden, invalid, notFound } from '../errors';
import { parseInput } from '../parse';
import type { PersonDto, UserDto } from './dto';

/**
 * Sign-in limits. Per username: five attempts, then a lock of 15 s doubling with each further attempt, up to 15 min;
 * a success clears it. Per client address (password spraying across accounts): fifty, then the same locks; a success
 * takes back only its own attempt, so one's own account cannot be used to wipe out failures made against others.
 * A counter nobody touched for an hour starts again.
 */
export const ACCOUNT_LIMIT: q.SignInLimit = { freeAttempts: 5, baseLockMs: 15_000, maxLockMs: 15 * 60_000, forgetAfterMs: 60 * 60_000 };
export const ADDRESS_LIMIT: q.SignInLimit = { ...ACCOUNT_LIMIT, freeAttempts: 50 };

// A hash to verify against when the account does not exist, so both paths cost the same time. Made on the first
// sign-in attempt of any kind (not on the first unknown name, which would then take twice as long as later ones),
// and not on import, which would slow every CLI command.
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

/** How long a username is locked after `failures` consecutive failed sign-ins: none for the first four, then doubling. */
export function lockDurationMs(failures: number, limit = ACCOUNT_LIMIT): number {
  if (failures < limit.freeAttempts) return 0;
  return Math.min(limit.maxLockMs, limit.baseLockMs * 2 ** (failures - limit.freeAttempts));
}

const throttled = (lockedUntil: Date | null | undefined, now: Date) => {
  const seconds = Math.max(1, Math.ceil(((lockedUntil?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
  return new DomainError('throttled', `Too many failed sign-ins. Try again in ${seconds} s.`);
};

/**
 * Counts the attempt against the username and, when known, the client address, both or neither, before any password
 * is checked. Throws `throttled` while either is locked.
 */
function countAttempt(username: string, address: string | null, now: Date): q.SignInCount {
  const db = getDb();
  q.forgetSignInAttempts(db, new Date(now.getTime() - ACCOUNT_LIMIT.forgetAfterMs), now);
  return inTransaction(db, () => {
    if (address !== null && !q.countSignInAttempt(db, 'address', address, ADDRESS_LIMIT, now)) {
      throw throttled(q.findSignInCount(db, 'address', address)?.lockedUntil, now);
    }
    const account = q.countSignInAttempt(db, 'account', username, ACCOUNT_LIMIT, now);
    // Refused by the username's lock: throwing rolls back the address count just made.
    if (!account) throw throttled(q.findSignInCount(db, 'account', username)?.lockedUntil, now);
    return account;
  });
}

/**
 * Checks a username and password. Throws `throttled` while the username or the client `address` is locked after
 * repeated failures, without checking the password; returns null for wrong credentials, an unknown name, an inactive
 * account or one that cannot sign in — all alike, and at the same cost.
 */
export async function verifyCredentials(username: string, password: string, now = new Date(), address: string | null = null) {
  dummyHash ??= hashPassword('not-a-real-password');
  const { attempts } = countAttempt(username, address, now);
  const db = getDb();
  const user = q.findUserByUsername(db, username);
  const ok = await verify(user?.passwordHash ?? (await dummyHash), password).catch(() => false);
  if (!user?.passwordHash || !ok || !user.active) {
    if (user) audit(db, { userId: user.id, action: 'sign_in_failed', detail: { failures: attempts } });
    return null;
  }
  // The owner proved themselves: the username's failures are forgiven; the address only gets this attempt back.
  q.clearSignInAttempts(db, 'account', username);
  if (address !== null) q.refundSignInAttempt(db, 'address', address, ADDRESS_LIMIT);
  return { id: user.id, sessionVersion: user.sessionVersion, name: user.displayName };
}

/** The actor behind a session token, or null when the account is gone, disabled or its sessions were revoked. */
export function loadActor(id: number, sessionVersion: number): Actor | null {
  const user = q.findUserById(getDb(), id);
  if (!user || !user.active || user.sessionVersion !== sessionVersion || !user.passwordHash) return null;
  return { id: user.id, username: user.username, displayName: user.displayName, role: user.role };
}

/**
 * Signing out: every session of the account ends at once (a JWT cannot be recalled, but the session version it
 * carries can be made stale). Nothing happens when `sessionVersion` is stale already.
 */
export function endSessions(id: number, sessionVersion: number): void {
  const db = getDb();
  inTransaction(db, () => {
    if (q.bumpSessionVersion(db, id, sessionVersion)) audit(db, { userId: id, action: 'signed_out', objectId: id });
  });
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
  const row = q.updateUser(db, id, { active }, !active);
  q.clearSignInAttempts(db, 'account', user.username);
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
  const user = mustFind(id);
  const passwordHash = await hashPassword(pw);
  const db = getDb();
  const row = q.updateUser(db, id, { passwordHash }, true);
  q.clearSignInAttempts(db, 'account', user.username);
  audit(db, { userId: actor.id, action: 'user_password_reset', objectId: id });
  return toDto(row!);
}

/** Accounts a lead may choose as reviewers: active and able to sign in. */
export function listAssignablePeople(actor: Actor): PersonDto[] {
  if (actor.role !== 'admin' && actor.role !== 'lead') throw forbidden();
  return q
    .listUsers(getDb())
    .filter((u) => u.active && u.passwordHash)
    .map((u) => ({ id: u.id, username: u.username, displayName: u.displayName, role: u.role }));
}
