import fs from 'node:fs';
import path from 'node:path';
import { getDb } from '@/db/client';
import { countUsersExcept } from '@/db/queries/users';
import { publicDataDir, skippedDatasetMessage } from '@/lib/io/public-data';
import { importItems } from '@/lib/server/imports/imports';
import { importJudge } from '@/lib/server/imports/judge-import';
import { createStudy, openStudy, setStudyCriteria, setStudyMembers } from '@/lib/server/studies/studies';
import { CLI_USERNAME, cliActor } from '@/lib/server/system/system';
import { createUser } from '@/lib/server/accounts/users';
import { seedRubricDemo } from './rubric-demo';

export const DEMO_PASSWORD = 'concord-demo';

export const DEMO_ACCOUNTS = [
  { username: 'admin', displayName: 'Ada Admin', role: 'admin' },
  { username: 'lead', displayName: 'Lee Lead', role: 'lead' },
  { username: 'ann1', displayName: 'Annotator One', role: 'annotator' },
  { username: 'ann2', displayName: 'Annotator Two', role: 'annotator' },
  { username: 'ann3', displayName: 'Annotator Three', role: 'annotator' },
  { username: 'ann4', displayName: 'Annotator Four', role: 'annotator' },
  { username: 'adj', displayName: 'Adjudicator Five', role: 'annotator' },
] as const;

const here = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data');
const PANDALM_JUDGES = ['gpt-3.5-turbo-testset-v1.json', 'pandalm-7b-testset-v1.json'];

/** The first of `paths` that does not exist, if any. */
const firstMissing = (paths: string[]) => paths.find((p) => !fs.existsSync(p));

/**
 * Loads the demo: accounts, the MathDial test split as a flow review study (read from the public data folder,
 * never copied into the repository), the hand-written KMP-style flows, the pairwise studies and the rubric ones
 * (`rubric-demo.ts`: MRBench V3 with gold labels and seed-made demo labels on a slice, clearly not human ones). Deterministic: fixed study seeds.
 * A public dataset that is missing is skipped, and `warn` says which, where it was looked for and how to get it.
 */
export async function seedDemo({
  ifEmpty = false,
  log = (_: string) => {},
  warn,
}: { ifEmpty?: boolean; log?: (message: string) => void; warn?: (message: string) => void } = {}) {
  const say = warn ?? log;
  const db = getDb();
  const people = countUsersExcept(db, CLI_USERNAME);
  if (ifEmpty && people > 0) return { skipped: true };
  const actor = cliActor();
  for (const a of DEMO_ACCOUNTS) await createUser(actor, { ...a, password: DEMO_PASSWORD });
  log(`Accounts: ${DEMO_ACCOUNTS.map((a) => a.username).join(', ')} (password "${DEMO_PASSWORD}")`);

  const guidelines = fs.readFileSync(path.join(here, 'flow-guidelines.md'), 'utf8');

  const kmp = createStudy(actor, { kind: 'flow_review', name: 'KMP-style flows', guidelines, payRate: 0.5, reviewersPerItem: 2, seed: 1 });
  importItems(actor, kmp.id, path.join(here, 'kmp-style', 'flows.jsonl'), 'concord');
  setStudyMembers(actor, kmp.id, { usernames: ['ann1', 'ann2'] });
  openStudy(actor, kmp.id);
  log(`Study ${kmp.id}: KMP-style flows (6 flows, ann1 and ann2 each review all)`);

  const mathdial = path.join(publicDataDir(), 'mathdial', 'test.jsonl');
  if (!fs.existsSync(mathdial)) say(skippedDatasetMessage('the MathDial flows study', mathdial));
  else {
    const study = createStudy(actor, { kind: 'flow_review', name: 'MathDial flows', guidelines, payRate: 0.4, reviewersPerItem: 1, seed: 2 });
    const report = importItems(actor, study.id, mathdial, 'mathdial');
    setStudyMembers(actor, study.id, { usernames: ['ann1', 'ann2', 'ann3'] });
    openStudy(actor, study.id);
    log(`Study ${study.id}: MathDial flows (${report.inserted} flows, split between ann1, ann2, ann3)`);
  }

  const judging = fs.readFileSync(path.join(here, 'pairwise-guidelines.md'), 'utf8');
  const kmpPairs = createStudy(actor, { kind: 'pairwise', name: 'KMP-style pairwise', guidelines: judging, payRate: 1, reviewersPerItem: 2, seed: 3 });
  importItems(actor, kmpPairs.id, path.join(here, 'kmp-style', 'pairwise.jsonl'), 'concord');
  setStudyMembers(actor, kmpPairs.id, { usernames: ['ann1', 'ann2'], adjudicator: 'adj' });
  openStudy(actor, kmpPairs.id);
  log(`Study ${kmpPairs.id}: KMP-style pairwise (3 items, judged by ann1 and ann2, adjudicated by adj)`);

  const bridge = path.join(publicDataDir(), 'bridge');
  const bridgeMissing = firstMissing([path.join(bridge, 'test.json'), path.join(bridge, 'responses')]);
  if (bridgeMissing) say(skippedDatasetMessage('the Bridge pairwise study', bridgeMissing));
  else {
    const study = createStudy(actor, { kind: 'pairwise', name: 'Bridge: GPT-4 vs expert tutors', guidelines: judging, payRate: 1, reviewersPerItem: 2, seed: 4 });
    const report = importItems(actor, study.id, bridge, 'bridge');
    setStudyMembers(actor, study.id, { usernames: ['ann1', 'ann2', 'ann3', 'ann4'], mode: 'fixed_sets', adjudicator: 'adj' });
    openStudy(actor, study.id);
    log(`Study ${study.id}: Bridge (${report.inserted} items in two sets: ann1+ann2 and ann3+ann4, adjudicated by adj)`);
  }

  const pandalm = path.join(publicDataDir(), 'pandalm', 'testset-v1.json');
  const pandalmJudges = PANDALM_JUDGES.map((f) => path.join(publicDataDir(), 'pandalm', f));
  const pandalmMissing = firstMissing([pandalm, ...pandalmJudges]);
  if (pandalmMissing) say(skippedDatasetMessage('the PandaLM study', pandalmMissing));
  else {
    const study = createStudy(actor, { kind: 'pairwise', name: 'PandaLM test set', payRate: 0, reviewersPerItem: 3, seed: 5, groundTruthRule: 'majority' });
    setStudyCriteria(actor, study.id, []);
    const report = importItems(actor, study.id, pandalm, 'pandalm');
    setStudyMembers(actor, study.id, { usernames: [], adjudicator: 'adj' });
    openStudy(actor, study.id);
    const judges = pandalmJudges.map((file) => importJudge(actor, study.id, file, 'pandalm'));
    log(
      `Study ${study.id}: PandaLM (${report.inserted} items with ${report.annotations?.inserted ?? 0} labels from its three annotators; ` +
        `judges ${judges.map((j) => `${j.run} (${j.labels} verdicts, ${j.unparsed.length} unreadable)`).join(', ')})`,
    );
  }
  seedRubricDemo(actor, log, say);
  return { skipped: false };
}
