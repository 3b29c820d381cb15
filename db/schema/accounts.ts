/** People who sign in, the throttling of their sign-in attempts, and their API tokens. */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns';

export const ROLES = ['admin', 'lead', 'annotator'] as const;

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    displayName: text('display_name').notNull(),
    // Null for accounts created by an import of prior annotations: they cannot sign in.
    passwordHash: text('password_hash'),
    role: text('role', { enum: ROLES }).notNull().default('annotator'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    // Bumped on sign-out, disable, role change and password reset; a JWT carrying an older value is refused.
    sessionVersion: integer('session_version').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_username_unique').on(t.username),
    check('users_username_format', sql`${t.username} GLOB '[a-z0-9]*' AND length(${t.username}) BETWEEN 2 AND 64`),
  ],
);

export const SIGN_IN_LIMITS = ['account', 'address'] as const;

/**
 * Sign-in throttling, per username (whether or not such an account exists, so that throttling tells nothing about
 * which names exist) and per client address. An attempt is counted before its password is checked, in one
 * statement, so that parallel attempts cannot all slip under the limit; a success takes its own count back.
 */
export const signInAttempts = sqliteTable(
  'sign_in_attempts',
  {
    kind: text('kind', { enum: SIGN_IN_LIMITS }).notNull(),
    key: text('key').notNull(),
    attempts: integer('attempts').notNull(),
    lockedUntil: integer('locked_until', { mode: 'timestamp_ms' }),
    lastAttemptAt: integer('last_attempt_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] }), index('sign_in_attempts_last_idx').on(t.lastAttemptAt)],
);

/**
 * Personal access tokens for the HTTP API (`/api/v1`). Only a SHA-256 hash of the secret is kept: the secret is 32
 * random bytes, so a slow password hash would add nothing but a cost on every request. `last4` lets a person tell
 * their tokens apart in a list. A token acts as its user with the user's current role and active flag; revoking it
 * sets `revoked_at` (the row stays, so the audit log can still name it).
 */
export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    last4: text('last4').notNull(),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    revokedBy: integer('revoked_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('api_tokens_hash_unique').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId),
    index('api_tokens_revoked_by_idx').on(t.revokedBy),
  ],
);
