// A separate process that submits one flow decision, for tests of concurrent writers on one database file.
// Usage: CONCORD_DB=… node --conditions=react-server --import tsx test/submit-worker.ts USERNAME ASSIGNMENT REQUEST_ID
import { getDb } from '@/db/client';
import { findUserByUsername } from '@/db/queries/users';
import { DomainError } from '@/lib/server/errors';
import { submitFlowReview } from '@/lib/server/review/flow-review';

const [username, assignmentId, requestId] = process.argv.slice(2);
const user = findUserByUsername(getDb(), username)!;
const actor = { id: user.id, username: user.username, displayName: user.displayName, role: user.role };
try {
  const r = submitFlowReview(actor, { assignmentId: Number(assignmentId), requestId, activeMs: 0, decision: { decision: 'verify' } });
  process.stdout.write(r.duplicate ? 'duplicate' : 'written');
} catch (e) {
  process.stdout.write(e instanceof DomainError ? e.code : `crash: ${String(e)}`);
}
