import type { Db } from '@/db/client';
import { insertAuditEntry, type AuditEntry } from '@/db/queries/audit';

/** Appends to the audit log; call inside the same transaction as the change it records. */
export function audit(db: Db, entry: AuditEntry) {
  insertAuditEntry(db, entry);
}
