import type { Db } from '@/db/client';
import { auditLog } from '@/db/schema';

type AuditEntry = { userId: number | null; action: string; studyId?: number; objectId?: number; detail?: Record<string, unknown> };

/** Appends to the audit log; call inside the same transaction as the change it records. */
export function audit(db: Db, entry: AuditEntry) {
  db.insert(auditLog).values(entry).run();
}
