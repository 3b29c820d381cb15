import { and, desc, eq, getTableColumns, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { apiTokens, users } from '../schema';

export type ApiTokenRow = typeof apiTokens.$inferSelect;
export type ApiTokenWithOwner = ApiTokenRow & { username: string };

export const insertApiToken = (db: Db, values: typeof apiTokens.$inferInsert): ApiTokenRow =>
  db.insert(apiTokens).values(values).returning().get();

const withOwner = { ...getTableColumns(apiTokens), username: users.username };

/** Tokens, newest first, of one user or (userId null) of everyone, with their owner's username. */
export function listApiTokens(db: Db, userId: number | null): ApiTokenWithOwner[] {
  const where: SQL | undefined = userId === null ? undefined : eq(apiTokens.userId, userId);
  return db
    .select(withOwner)
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(where)
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .all();
}

export const findApiToken = (db: Db, id: number): ApiTokenWithOwner | undefined =>
  db.select(withOwner).from(apiTokens).innerJoin(users, eq(users.id, apiTokens.userId)).where(eq(apiTokens.id, id)).get();

export const findApiTokenByHash = (db: Db, tokenHash: string): ApiTokenRow | undefined =>
  db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash)).get();

/** Revokes the token unless it already is; false when it was. */
export const revokeApiToken = (db: Db, id: number, by: number, at: Date): boolean =>
  db
    .update(apiTokens)
    .set({ revokedAt: at, revokedBy: by })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .run().changes > 0;

/** Records a use, at most once per `every` ms per token, so a busy script does not write on every request. */
export const touchApiToken = (db: Db, id: number, at: Date, everyMs: number) =>
  db
    .update(apiTokens)
    .set({ lastUsedAt: at })
    .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(at.getTime() - everyMs)))))
    .run();
