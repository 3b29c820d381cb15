import { auditLog } from '../schema';
import type { Db } from '../client';

export type AuditEntry = {
  userId: number | null;
  action: string;
  studyId?: number;
  objectId?: number;
  detail?: Record<string, unknown>;
  tokenId?: number | null;
};

/** Appends one entry to the audit log. */
export const insertAuditEntry = (db: Db, entry: AuditEntry) => db.insert(auditLog).values(entry).run();
