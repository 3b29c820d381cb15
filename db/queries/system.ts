import { stmt, type Db } from '../client';

/** Whether the connection answers a trivial query. */
export const databaseAnswers = (db: Db) => stmt(db, 'SELECT 1').pluck().get() === 1;
