import fs from 'node:fs';
import os from 'node:os';
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
import { DEMO_ACCOUNTS, DEMO_PASSWORD, markDemo } from './accounts';

export { DEMO_ACCOUNTS, DEMO_PASSWORD };

const here = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data');
/** How many PandaLM pairs the adjudication demo study takes (from the start of the test set). */
const PANDALM_ADJUDICATION_ITEMS = 200;
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
  for (const { username, displayName, role } of DEMO_ACCOUNTS)
    await createUser(actor, { username, displayName, role, password: DEMO_PASSWORD });
  // From here on the sign-in page lists the demo accounts: this database holds nothing but the demo.
  markDemo(db);
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
    const study = createStudy(actor, {
      kind: 'flow_review',
      name: 'MathDial flows',
      guidelines,
      payRate: 0.4,
      reviewersPerItem: 1,
      seed: 2,
    });
    const report = importItems(actor, study.id, mathdial, 'mathdial');
    setStudyMembers(actor, study.id, { usernames: ['ann1', 'ann2', 'ann3'] });
    openStudy(actor, study.id);
    log(`Study ${study.id}: MathDial flows (${report.inserted} flows, split between ann1, ann2, ann3)`);
  }

  const judging = fs.readFileSync(path.join(here, 'pairwise-guidelines.md'), 'utf8');
  const kmpPairs = createStudy(actor, {
    kind: 'pairwise',
    name: 'KMP-style pairwise',
    guidelines: judging,
    payRate: 1,
    reviewersPerItem: 2,
    seed: 3,
  });
  importItems(actor, kmpPairs.id, path.join(here, 'kmp-style', 'pairwise.jsonl'), 'concord');
  setStudyMembers(actor, kmpPairs.id, { usernames: ['ann1', 'ann2'], adjudicator: 'adj' });
  openStudy(actor, kmpPairs.id);
  log(`Study ${kmpPairs.id}: KMP-style pairwise (3 items, judged by ann1 and ann2, adjudicated by adj)`);

  const bridge = path.join(publicDataDir(), 'bridge');
  const bridgeMissing = firstMissing([path.join(bridge, 'test.json'), path.join(bridge, 'responses')]);
  if (bridgeMissing) say(skippedDatasetMessage('the Bridge pairwise study', bridgeMissing));
  else {
    const study = createStudy(actor, {
      kind: 'pairwise',
      name: 'Bridge: replies to student mistakes',
      guidelines: judging,
      payRate: 1,
      reviewersPerItem: 2,
      seed: 4,
    });
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
    const study = createStudy(actor, {
      kind: 'pairwise',
      name: 'PandaLM test set',
      payRate: 0,
      reviewersPerItem: 3,
      seed: 5,
      groundTruthRule: 'majority',
    });
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

  // The same annotators' labels under the agreed-or-adjudicated rule: every item where they differ waits for the
  // adjudicator, so the demo's adjudicator has real disagreements to settle from the first start.
  if (!pandalmMissing) {
    const subset = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'concord-seed-')), 'pandalm-first.json');
    try {
      const records = JSON.parse(fs.readFileSync(pandalm, 'utf8')) as unknown[];
      fs.writeFileSync(subset, JSON.stringify(records.slice(0, PANDALM_ADJUDICATION_ITEMS)));
      const study = createStudy(actor, {
        kind: 'pairwise',
        name: 'PandaLM: disagreements to settle',
        payRate: 0,
        reviewersPerItem: 3,
        seed: 6,
        groundTruthRule: 'adjudicated',
      });
      setStudyCriteria(actor, study.id, []);
      const report = importItems(actor, study.id, subset, 'pandalm');
      setStudyMembers(actor, study.id, { usernames: [], adjudicator: 'adj' });
      openStudy(actor, study.id);
      log(`Study ${study.id}: PandaLM's first ${report.inserted} pairs, its annotators' labels, every disagreement for adj to settle`);
    } finally {
      fs.rmSync(path.dirname(subset), { recursive: true, force: true });
    }
  }

  seedRubricDemo(actor, log, say);
  return { skipped: false };
}
