import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { getDb, inTransaction } from '@/db/client';
import * as q from '@/db/queries/api-tokens';
import { findUserById, findUserByUsername } from '@/db/queries/users';
import { createTokenSchema, type CreateTokenInput } from '@/lib/validation/api-tokens';
import type { Actor } from '../actor';
import { DomainError, forbidden, invalid, notFound } from '../errors';
import { parseInput } from '../parse';
import { audit } from './audit';
import type { ApiTokenDto, NewApiTokenDto } from './dto';

/** What a token looks like: a recognisable prefix (so secret scanners and people can spot one) and 32 random bytes. */
export const TOKEN_PREFIX = 'cnc_';
const TOKEN_SHAPE = /^cnc_[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;
/** A token's last use is written at most this often, so a busy script does not cost a write per request. */
const TOUCH_EVERY_MS = 60_000;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

function toDto(row: q.ApiTokenWithOwner, now: Date): ApiTokenDto {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    last4: row.last4,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    state: row.revokedAt ? 'revoked' : row.expiresAt <= now ? 'expired' : 'active',
  };
}

/**
 * Makes a token for the caller, or (admins only) for the account named by `username`. The secret is returned once
 * and only its hash is kept. Accounts that cannot sign in (made by an import of prior annotations) get none.
 */
export function createApiToken(actor: Actor, input: CreateTokenInput, now = new Date()): NewApiTokenDto {
  const { name, expiresInDays, username } = parseInput(createTokenSchema, input);
  const db = getDb();
  let owner = findUserById(db, actor.id);
  if (username !== undefined && username !== actor.username) {
    if (actor.role !== 'admin') throw forbidden('Only an admin can make a token for someone else.');
    owner = findUserByUsername(db, username);
    if (!owner) throw invalid(`There is no account "${username}".`, { username: 'No such account.' });
  }
  if (!owner) throw notFound('The account');
  if (!owner.active) throw invalid(`The account "${owner.username}" is disabled; enable it before making a token.`);
  if (!owner.passwordHash) throw invalid(`The account "${owner.username}" cannot sign in, so it cannot have a token.`);
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + expiresInDays * DAY_MS);
  const row = inTransaction(db, () => {
    const r = q.insertApiToken(db, { userId: owner.id, name, tokenHash: hashSecret(token), last4: token.slice(-4), expiresAt });
    audit(db, {
      userId: actor.id,
      action: 'token_created',
      objectId: r.id,
      detail: { name, owner: owner.username, expiresAt: expiresAt.toISOString() },
    });
    return r;
  });
  return { id: row.id, token, expiresAt: expiresAt.toISOString(), name, username: owner.username };
}

/** The caller's own tokens; an admin may ask for one account's (`username`) or everyone's (`all`). */
export function listApiTokens(actor: Actor, options: { username?: string; all?: boolean } = {}, now = new Date()): ApiTokenDto[] {
  const db = getDb();
  let userId: number | null = actor.id;
  if (options.all || (options.username !== undefined && options.username !== actor.username)) {
    if (actor.role !== 'admin') throw forbidden("Only an admin can see other people's tokens.");
    if (options.all) userId = null;
    else {
      const u = findUserByUsername(db, options.username!);
      if (!u) throw invalid(`There is no account "${options.username}".`, { username: 'No such account.' });
      userId = u.id;
    }
  }
  return q.listApiTokens(db, userId).map((r) => toDto(r, now));
}

/** Revokes one of the caller's tokens, or (admins) anyone's. Revoking twice is answered as done. */
export function revokeApiToken(actor: Actor, tokenId: number, now = new Date()): ApiTokenDto {
  const db = getDb();
  const row = Number.isSafeInteger(tokenId) ? q.findApiToken(db, tokenId) : undefined;
  // Someone else's token is "not found" to a non-admin: its existence is not theirs to learn.
  if (!row || (row.userId !== actor.id && actor.role !== 'admin')) throw notFound(`Token ${tokenId}`);
  inTransaction(db, () => {
    if (q.revokeApiToken(db, row.id, actor.id, now)) {
      audit(db, { userId: actor.id, action: 'token_revoked', objectId: row.id, detail: { name: row.name, owner: row.username } });
    }
  });
  return toDto(q.findApiToken(db, row.id)!, now);
}

/** The person a bearer token acts as, with the token that carried it. */
export type TokenActor = { actor: Actor; token: { id: number; name: string } };

const refused = () =>
  new DomainError('unauthenticated', 'The token is not valid: it is unknown, expired or revoked, or its account is disabled.');

/**
 * Who a bearer token acts as, read afresh on every request: the account's current role and active flag count at once,
 * and an unknown, expired or revoked token, or one whose account is disabled or cannot sign in, is refused with one
 * message (which of these it was is not the caller's to learn).
 */
export function actorForToken(secret: string, now = new Date()): TokenActor {
  if (!TOKEN_SHAPE.test(secret)) throw refused();
  const db = getDb();
  const hash = hashSecret(secret);
  const row = q.findApiTokenByHash(db, hash);
  // The index lookup found it by hash; compare again in constant time so timing says nothing about near misses.
  if (!row || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(hash))) throw refused();
  if (row.revokedAt || row.expiresAt <= now) throw refused();
  const user = findUserById(db, row.userId);
  if (!user || !user.active || !user.passwordHash) throw refused();
  q.touchApiToken(db, row.id, now, TOUCH_EVERY_MS);
  return {
    actor: { id: user.id, username: user.username, displayName: user.displayName, role: user.role },
    token: { id: row.id, name: row.name },
  };
}
