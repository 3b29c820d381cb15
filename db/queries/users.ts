import { and, eq, lt, ne, sql, type SQL } from 'drizzle-orm';
import { preparedQuery, type Db } from '../client';
import { signInAttempts, users, type SIGN_IN_LIMITS } from '../schema';

export type UserRow = typeof users.$inferSelect;

export const findUserByUsername = (db: Db, username: string) => db.select().from(users).where(eq(users.username, username)).get();

export const findUserById = (db: Db, id: number) =>
  preparedQuery(db, 'findUserById', () =>
    db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare(),
  ).get({ id });

export const listUsers = (db: Db) => db.select().from(users).orderBy(users.username).all();

export function insertUser(db: Db, values: typeof users.$inferInsert): UserRow {
  return db.insert(users).values(values).returning().get();
}

export function updateUser(db: Db, id: number, values: Partial<typeof users.$inferInsert>, bumpSession = false) {
  return db
    .update(users)
    .set(bumpSession ? { ...values, sessionVersion: sql`${users.sessionVersion} + 1` } : values)
    .where(eq(users.id, id))
    .returning()
    .get();
}

/** Bumps the session version only if it is still `current`, so a stale token cannot end newer sessions. */
export const bumpSessionVersion = (db: Db, id: number, current: number) =>
  db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(and(eq(users.id, id), eq(users.sessionVersion, current)))
    .run().changes > 0;

export const countActiveAdmins = (db: Db) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.active, true)))
    .get()!.n;

export type SignInLimitKind = (typeof SIGN_IN_LIMITS)[number];

/** How one kind of sign-in counter behaves: attempts allowed before a lock, and the lock's growth. */
export type SignInLimit = { freeAttempts: number; baseLockMs: number; maxLockMs: number; forgetAfterMs: number };

export type SignInCount = { attempts: number; lockedUntil: Date | null };

/**
 * Counts one sign-in attempt against `kind`/`key` unless the counter is locked, in one statement: parallel attempts
 * each see the count the one before them wrote, so no more than `freeAttempts` get past before the lock. Reaching
 * `freeAttempts` locks the counter for `baseLockMs`, doubling with each attempt after (up to `maxLockMs`); a counter
 * left alone for `forgetAfterMs` starts again from one. Returns the new count, or undefined when locked (nothing counted).
 */
export function countSignInAttempt(db: Db, kind: SignInLimitKind, key: string, limit: SignInLimit, now: Date): SignInCount | undefined {
  const t = signInAttempts;
  const nowMs = now.getTime();
  const next = sql`(CASE WHEN ${t.lastAttemptAt} < ${nowMs - limit.forgetAfterMs} THEN 1 ELSE ${t.attempts} + 1 END)`;
  // 2^(n - free) as a shift, capped so it cannot overflow before min() applies the ceiling.
  const lockFor = (n: SQL) =>
    sql`(CASE WHEN ${n} >= ${limit.freeAttempts} THEN ${nowMs} + min(${limit.maxLockMs}, ${limit.baseLockMs} << min(${n} - ${limit.freeAttempts}, 20)) ELSE NULL END)`;
  return db
    .insert(t)
    .values({
      kind,
      key,
      attempts: 1,
      lockedUntil: limit.freeAttempts <= 1 ? new Date(nowMs + limit.baseLockMs) : null,
      lastAttemptAt: now,
    })
    .onConflictDoUpdate({
      target: [t.kind, t.key],
      set: { attempts: next, lockedUntil: lockFor(next), lastAttemptAt: now },
      setWhere: sql`${t.lockedUntil} IS NULL OR ${t.lockedUntil} <= ${nowMs}`,
    })
    .returning({ attempts: t.attempts, lockedUntil: t.lockedUntil })
    .get();
}

export const findSignInCount = (db: Db, kind: SignInLimitKind, key: string) =>
  db
    .select({ attempts: signInAttempts.attempts, lockedUntil: signInAttempts.lockedUntil })
    .from(signInAttempts)
    .where(and(eq(signInAttempts.kind, kind), eq(signInAttempts.key, key)))
    .get();

/** Takes one counted attempt back (a success), unlocking once the count is below the limit again. */
export function refundSignInAttempt(db: Db, kind: SignInLimitKind, key: string, limit: SignInLimit) {
  const t = signInAttempts;
  db.update(t)
    .set({
      attempts: sql`max(${t.attempts} - 1, 0)`,
      lockedUntil: sql`CASE WHEN ${t.attempts} - 1 < ${limit.freeAttempts} THEN NULL ELSE ${t.lockedUntil} END`,
    })
    .where(and(eq(t.kind, kind), eq(t.key, key)))
    .run();
}

export function clearSignInAttempts(db: Db, kind: SignInLimitKind, key: string) {
  db.delete(signInAttempts)
    .where(and(eq(signInAttempts.kind, kind), eq(signInAttempts.key, key)))
    .run();
}

/** Drops counters nobody has touched since `before` and that hold no lock: they would start again from one anyway. */
export function forgetSignInAttempts(db: Db, before: Date, now: Date) {
  db.delete(signInAttempts)
    .where(
      and(
        lt(signInAttempts.lastAttemptAt, before),
        sql`(${signInAttempts.lockedUntil} IS NULL OR ${signInAttempts.lockedUntil} <= ${now.getTime()})`,
      ),
    )
    .run();
}

/** How many accounts there are besides the one named `username`. */
export const countUsersExcept = (db: Db, username: string) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(ne(users.username, username))
    .get()!.n;
