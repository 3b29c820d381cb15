import { and, eq, sql } from 'drizzle-orm';
import { preparedQuery, type Db } from '../client';
import { users } from '../schema';

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

export const countActiveAdmins = (db: Db) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.active, true)))
    .get()!.n;
