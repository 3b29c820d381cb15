import type { Db } from '@/db/client';
import { insertAuditEntry, type AuditEntry } from '@/db/queries/audit';
import { currentTokenId } from './token-context';

/**
 * Appends to the audit log; call inside the same transaction as the change it records. A change made through the API
 * records the token it came through.
 */
export function audit(db: Db, entry: AuditEntry) {
  insertAuditEntry(db, { ...entry, tokenId: currentTokenId() });
}
