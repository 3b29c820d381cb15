/**
 * Part (1) of bench/ceiling.ts, in a process of its own: the submit use-case back to back on a new database.
 * Arguments: the database file, a JSONL of flows, the seconds to run. Prints one JSON line { n, seconds, p50, p95, p99 }: a
 * summary, not every latency (tens of thousands of them made hundreds of kilobytes that a pipe could cut short), and
 * the process exits only once that line has been handed to the pipe.
 */
import { percentile } from '@/e2e/support/load';

const [db, flows, seconds] = process.argv.slice(2);
process.env.CONCORD_DB = db;

async function main() {
  const { importItems } = await import('@/lib/server/imports/imports');
  const { createStudy, openStudy, setStudyMembers } = await import('@/lib/server/studies/studies');
  const { getQueue, submitFlowReview } = await import('@/lib/server/review/flow-review');
  const { cliActor } = await import('@/lib/server/system/system');
  const { createUser } = await import('@/lib/server/accounts/users');
  const admin = cliActor();
  const users = [];
  for (let i = 0; i < 20; i++) {
    const u = await createUser(admin, { username: `alone-${i}`, displayName: `A${i}`, password: 'alone-password-1', role: 'annotator' });
    users.push({ id: u.id, username: u.username, displayName: u.displayName, role: 'annotator' as const });
  }
  const study = createStudy(admin, { kind: 'flow_review', name: 'Alone', reviewersPerItem: 1, seed: 1 }).id;
  importItems(admin, study, flows, 'concord');
  setStudyMembers(admin, study, { usernames: users.map((u) => u.username) });
  openStudy(admin, study);
  const lat: number[] = [];
  const start = Date.now();
  const end = start + Number(seconds) * 1000;
  let n = 0;
  while (Date.now() < end) {
    const u = users[n % users.length];
    const id = getQueue(u, study).currentId;
    // Out of items: report what ran (the rate is over the time actually used).
    if (id === null) break;
    const t = performance.now();
    submitFlowReview(u, { assignmentId: id, requestId: `alone-${n}-xxxxxxxx`, activeMs: 1000, decision: { decision: 'verify' } });
    lat.push(performance.now() - t);
    n++;
  }
  lat.sort((a, b) => a - b);
  const summary = { n, seconds: (Date.now() - start) / 1000, p50: percentile(lat, 50), p95: percentile(lat, 95), p99: percentile(lat, 99) };
  process.stdout.write(`${JSON.stringify(summary)}\n`, () => process.exit(0));
}

void main();
