import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getDb } from '@/db/client';
import { listStudies } from '@/db/queries/studies';
import { countUsersExcept } from '@/db/queries/users';
import { publicDataDir, skippedDatasetsMessage } from '@/lib/io/public-data';
import type { Actor } from '@/lib/server/actor';
import { importItems } from '@/lib/server/imports/imports';
import { importJudge } from '@/lib/server/imports/judge-import';
import { createStudy, openStudy, setStudyCriteria, setStudyMembers } from '@/lib/server/studies/studies';
import { CLI_USERNAME, cliActor } from '@/lib/server/system/system';
import { createUser } from '@/lib/server/accounts/users';
import { invalid } from '@/lib/server/errors';
import { RUBRIC_DEMO_STUDIES } from './rubric-demo';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isDemo, markDemo } from './accounts';
import type { DemoStudy } from './demo-study';
import { demoGuidelines } from './guidelines';

export { DEMO_ACCOUNTS, DEMO_PASSWORD };

const here = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data');
/** How many PandaLM pairs the adjudication demo study takes (from the start of the test set). */
const PANDALM_ADJUDICATION_ITEMS = 200;
const PANDALM_JUDGES = ['gpt-3.5-turbo-testset-v1.json', 'pandalm-7b-testset-v1.json'];

/** The first of `paths` that does not exist, if any. */
const firstMissing = (paths: string[]) => paths.find((p) => !fs.existsSync(p));
const mathdialFile = () => path.join(publicDataDir(), 'mathdial', 'test.jsonl');
const bridgeDir = () => path.join(publicDataDir(), 'bridge');
const pandalmFile = () => path.join(publicDataDir(), 'pandalm', 'testset-v1.json');
const pandalmJudgeFiles = () => PANDALM_JUDGES.map((f) => path.join(publicDataDir(), 'pandalm', f));

/**
 * The demo's studies, in the order a fresh seed makes them (the demo's study ids follow this order): the hand-written
 * KMP-style examples that ship with the app, and studies of the public datasets, read from the public data folder and
 * never copied into the repository. Deterministic: fixed study seeds.
 */
const FLOW_AND_PAIRWISE_STUDIES: DemoStudy[] = [
  {
    name: 'KMP-style flows',
    what: 'the KMP-style flows study',
    needs: () => [],
    reviewers: ['ann1', 'ann2'],
    make(actor, log) {
      const study = createStudy(actor, {
        kind: 'flow_review',
        name: 'KMP-style flows',
        guidelines: demoGuidelines('flow_review'),
        payRate: 0.5,
        reviewersPerItem: 2,
        seed: 1,
      });
      importItems(actor, study.id, path.join(here, 'kmp-style', 'flows.jsonl'), 'concord');
      setStudyMembers(actor, study.id, { usernames: ['ann1', 'ann2'] });
      openStudy(actor, study.id);
      log(`Study ${study.id}: KMP-style flows (6 flows, ann1 and ann2 each review all)`);
    },
  },
  {
    name: 'MathDial flows',
    what: 'the MathDial flows study',
    needs: () => [mathdialFile()],
    reviewers: ['ann1', 'ann2', 'ann3'],
    make(actor, log) {
      const study = createStudy(actor, {
        kind: 'flow_review',
        name: 'MathDial flows',
        guidelines: demoGuidelines('flow_review'),
        payRate: 0.4,
        reviewersPerItem: 1,
        seed: 2,
      });
      const report = importItems(actor, study.id, mathdialFile(), 'mathdial');
      setStudyMembers(actor, study.id, { usernames: ['ann1', 'ann2', 'ann3'] });
      openStudy(actor, study.id);
      log(`Study ${study.id}: MathDial flows (${report.inserted} flows, split between ann1, ann2, ann3)`);
    },
  },
  {
    name: 'KMP-style pairwise',
    what: 'the KMP-style pairwise study',
    needs: () => [],
    reviewers: ['ann1', 'ann2'],
    adjudicator: 'adj',
    make(actor, log) {
      const study = createStudy(actor, {
        kind: 'pairwise',
        name: 'KMP-style pairwise',
        guidelines: demoGuidelines('pairwise'),
        payRate: 1,
        reviewersPerItem: 2,
        seed: 3,
      });
      importItems(actor, study.id, path.join(here, 'kmp-style', 'pairwise.jsonl'), 'concord');
      setStudyMembers(actor, study.id, { usernames: ['ann1', 'ann2'], adjudicator: 'adj' });
      openStudy(actor, study.id);
      log(`Study ${study.id}: KMP-style pairwise (3 items, judged by ann1 and ann2, adjudicated by adj)`);
    },
  },
  {
    name: 'Bridge: replies to student mistakes',
    what: 'the Bridge pairwise study',
    needs: () => [path.join(bridgeDir(), 'test.json'), path.join(bridgeDir(), 'responses')],
    reviewers: ['ann1', 'ann2', 'ann3', 'ann4'],
    adjudicator: 'adj',
    make(actor, log) {
      const study = createStudy(actor, {
        kind: 'pairwise',
        name: 'Bridge: replies to student mistakes',
        guidelines: demoGuidelines('pairwise'),
        payRate: 1,
        reviewersPerItem: 2,
        seed: 4,
      });
      const report = importItems(actor, study.id, bridgeDir(), 'bridge');
      setStudyMembers(actor, study.id, { usernames: ['ann1', 'ann2', 'ann3', 'ann4'], mode: 'fixed_sets', adjudicator: 'adj' });
      openStudy(actor, study.id);
      log(`Study ${study.id}: Bridge (${report.inserted} items in two sets: ann1+ann2 and ann3+ann4, adjudicated by adj)`);
    },
  },
  {
    name: 'PandaLM test set',
    what: 'the PandaLM study',
    needs: () => [pandalmFile(), ...pandalmJudgeFiles()],
    reviewers: [],
    adjudicator: 'adj',
    make(actor, log) {
      const study = createStudy(actor, {
        kind: 'pairwise',
        name: 'PandaLM test set',
        payRate: 0,
        reviewersPerItem: 3,
        seed: 5,
        groundTruthRule: 'majority',
      });
      setStudyCriteria(actor, study.id, []);
      const report = importItems(actor, study.id, pandalmFile(), 'pandalm');
      setStudyMembers(actor, study.id, { usernames: [], adjudicator: 'adj' });
      openStudy(actor, study.id);
      const judges = pandalmJudgeFiles().map((file) => importJudge(actor, study.id, file, 'pandalm'));
      log(
        `Study ${study.id}: PandaLM (${report.inserted} items with ${report.annotations?.inserted ?? 0} labels from its three annotators; ` +
          `judges ${judges.map((j) => `${j.run} (${j.labels} verdicts, ${j.unparsed.length} unreadable)`).join(', ')})`,
      );
    },
  },
  {
    // The same annotators' labels under the agreed-or-adjudicated rule: every item where they differ waits for the
    // adjudicator, so the demo's adjudicator has real disagreements to settle from the first start.
    name: 'PandaLM: disagreements to settle',
    what: 'the PandaLM adjudication study',
    needs: () => [pandalmFile()],
    reviewers: [],
    adjudicator: 'adj',
    make(actor, log) {
      const subset = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'concord-seed-')), 'pandalm-first.json');
      try {
        const records = JSON.parse(fs.readFileSync(pandalmFile(), 'utf8')) as unknown[];
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
    },
  },
];

export const DEMO_STUDIES: readonly DemoStudy[] = [...FLOW_AND_PAIRWISE_STUDIES, ...RUBRIC_DEMO_STUDIES];

/** The demo studies that cannot be made here, with the first file each lacks. */
export function unavailableDemoStudies(): { study: DemoStudy; lookedFor: string }[] {
  return DEMO_STUDIES.flatMap((study) => {
    const lookedFor = firstMissing(study.needs());
    return lookedFor ? [{ study, lookedFor }] : [];
  });
}

/**
 * Makes the demo studies this database does not have and whose data is here; returns how many it made. A stand-in
 * is made only when the study it stands in for is neither here nor makeable.
 */
function makeMissingStudies(actor: Actor, log: (m: string) => void, say: (m: string) => void): number {
  const present = new Set(listStudies(getDb()).map((s) => s.name));
  const unavailable = new Map(unavailableDemoStudies().map((u) => [u.study.name, u.lookedFor]));
  const skipped: { what: string; lookedFor: string }[] = [];
  let made = 0;
  for (const study of DEMO_STUDIES) {
    if (present.has(study.name)) continue;
    const lookedFor = unavailable.get(study.name);
    if (lookedFor) {
      skipped.push({ what: study.what, lookedFor });
      continue;
    }
    if (study.standsInFor && (present.has(study.standsInFor) || !unavailable.has(study.standsInFor))) continue;
    study.make(actor, log, say);
    present.add(study.name);
    made++;
  }
  if (skipped.length) say(skippedDatasetsMessage(skipped));
  return made;
}

/**
 * Loads the demo: the accounts and the demo studies (`DEMO_STUDIES`; the rubric ones in `rubric-demo.ts`: MRBench V3
 * with gold labels and seed-made demo labels on a slice, clearly not human ones). On a demo database that already has
 * its accounts, adds the demo studies it lacks whose data has arrived since (`npx concord data fetch`). A database
 * that is not the demo is never touched: with `ifEmpty` the seed then does nothing, without it it refuses.
 * What it could not make is said once, with where it looked and how to add it later.
 */
export async function seedDemo({
  ifEmpty = false,
  log = (_: string) => {},
  warn,
}: { ifEmpty?: boolean; log?: (message: string) => void; warn?: (message: string) => void } = {}): Promise<{
  outcome: 'seeded' | 'topped-up' | 'complete' | 'not-demo';
  made: number;
}> {
  const say = warn ?? log;
  const db = getDb();
  const actor = cliActor();
  if (countUsersExcept(db, CLI_USERNAME) > 0) {
    if (!isDemo(db)) {
      if (ifEmpty) return { outcome: 'not-demo', made: 0 };
      throw invalid('This database has accounts and is not the demo; the demo seed only fills an empty database or adds to the demo.');
    }
    const made = makeMissingStudies(actor, log, say);
    return { outcome: made ? 'topped-up' : 'complete', made };
  }
  for (const { username, displayName, role } of DEMO_ACCOUNTS)
    await createUser(actor, { username, displayName, role, password: DEMO_PASSWORD });
  // From here on the sign-in page lists the demo accounts: this database holds nothing but the demo.
  markDemo(db);
  log(`Accounts: ${DEMO_ACCOUNTS.map((a) => a.username).join(', ')} (password "${DEMO_PASSWORD}")`);
  return { outcome: 'seeded', made: makeMissingStudies(actor, log, say) };
}
