import { asc, eq, sql } from 'drizzle-orm';
import { judgeEndpoints } from '../schema';
import { stmt, type Db } from '../client';

/* The admin-configured judge endpoints (db/schema/judges.ts, migration 0019). */

export type EndpointRow = typeof judgeEndpoints.$inferSelect;
export type EndpointValues = Pick<EndpointRow, 'name' | 'baseUrl' | 'keyEnv' | 'models' | 'priceIn' | 'priceOut'>;

export const listEndpoints = (db: Db) => db.select().from(judgeEndpoints).orderBy(asc(judgeEndpoints.name)).all();

export const findEndpoint = (db: Db, id: number) => db.select().from(judgeEndpoints).where(eq(judgeEndpoints.id, id)).get();

export const findEndpointByName = (db: Db, name: string) => db.select().from(judgeEndpoints).where(eq(judgeEndpoints.name, name)).get();

export const insertEndpoint = (db: Db, v: EndpointValues, by: number) =>
  db
    .insert(judgeEndpoints)
    .values({ ...v, createdBy: by, updatedBy: by })
    .returning({ id: judgeEndpoints.id })
    .get().id;

export const updateEndpoint = (db: Db, id: number, v: EndpointValues, by: number) =>
  db
    .update(judgeEndpoints)
    .set({ ...v, updatedBy: by, updatedAt: sql`(unixepoch('subsec') * 1000)` })
    .where(eq(judgeEndpoints.id, id))
    .run().changes === 1;

/** Whether some configured endpoint keeps its key in the variable `name` (the admin's list of key variables). */
export const isEndpointKeyVariable = (db: Db, name: string) =>
  stmt(db, 'SELECT EXISTS (SELECT 1 FROM judge_endpoints WHERE key_env = ?)').pluck().get(name) === 1;

export const deleteEndpoint = (db: Db, id: number) => db.delete(judgeEndpoints).where(eq(judgeEndpoints.id, id)).run().changes === 1;

/** Runs of the endpoint that are not over (running, paused, circuit open): they would lose their endpoint. */
export const unfinishedRunsOfEndpoint = (db: Db, id: number) =>
  stmt(
    db,
    `SELECT r.name FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id
      WHERE l.endpoint_id = ? AND l.state IN ('running', 'paused', 'circuit_open') ORDER BY r.name`,
  )
    .pluck()
    .all(id) as string[];
