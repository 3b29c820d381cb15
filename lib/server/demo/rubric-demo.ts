import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { getDb } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as itemsQ from '@/db/queries/items';
import * as importsQ from '@/db/queries/imports';
import { findUserByUsername } from '@/db/queries/users';
import { MRBENCH_GOLD_ANNOTATOR, mrbenchRunLines } from '@/lib/io/adapters/mrbench';
import { EVALKIT_AUTO_JUDGE } from '@/lib/io/adapters/aitutor-evalkit';
import { publicDataDir } from '@/lib/io/public-data';
import { rubricJudgeRecords } from '@/lib/kinds/rubric/records';
import type { RubricCatalog, RubricItem } from '@/lib/validation/rubric';
import type { Actor } from '@/lib/server/actor';
import { importItems } from '@/lib/server/imports/imports';
import { importJudge } from '@/lib/server/imports/judge-import';
import { submitRubric } from '@/lib/server/review/rubric';
import { createStudy, openStudy, setStudyMembers } from '@/lib/server/studies/studies';
import type { DemoStudy } from './demo-study';
import { demoGuidelines } from './guidelines';

/*
 * The rubric part of the demo. From the public data (CONCORD_PUBLIC_DATA): the MRBench V3 dev set as a rubric study
 * with MRBench's published gold labels as a prior reviewer (`mrbench-gold`) and MRBench V1's labels of the same
 * replies as a judge run (`mrbench-v1`), and the AITutor-EvalKit sample with its three judges. Without MRBench, a
 * small hand-written example takes its place.
 *
 * The two demo annotators' labels on a slice of MRBench are NOT human judgements: the seed makes them, as
 * submissions, from the gold labels with a fixed share of deliberate one-step changes, so that agreement,
 * disagreement and adjudication have something to show. They must never be read as real annotations.
 */

const here = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data');

/** Dialogues of MRBench whose replies the two demo annotators "label" in the seed. */
export const DEMO_SLICE_DIALOGUES = 20;
/** The share of (reply, dimension) labels a demo annotator moves one step away from gold. */
export const DEMO_CHANGE_RATE = 0.15;

const EVALKIT_JUDGE_FILES = ['auto_model_predictions.json', 'gpt5_model_predictions.json', 'prometheus_model_predictions.json'];

/** A number in [0, 1) fixed by its parts: the demo's labels are the same on every seed. */
function draw(...parts: (string | number)[]): number {
  return crypto.createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0) / 2 ** 32;
}

/** The demo annotator's label: gold, or, for DEMO_CHANGE_RATE of the labels, one step up or down the scale. */
export function demoLabel(annotator: string, itemId: string, dimension: string, gold: number, labelCount: number): number {
  if (draw(annotator, itemId, dimension, 'change') >= DEMO_CHANGE_RATE) return gold;
  const up = draw(annotator, itemId, dimension, 'direction') < 0.5;
  const moved = gold + (up ? 1 : -1);
  return moved < 0 || moved >= labelCount ? gold + (up ? -1 : 1) : moved;
}

/**
 * Submits the demo annotators' labels on the replies of the first `dialogues` dialogues through the review screen's
 * own use-case (`submitRubric`), as each annotator: the same checks and writes as a submission from the browser,
 * with no active time. Returns how many submissions were made.
 */
function submitDemoLabels(studyId: number, catalog: RubricCatalog, annotators: string[], dialogues: number): number {
  const db = getDb();
  const items = importsQ.itemGroupsInOrder(db, studyId);
  const groups = new Set([...new Set(items.map((i) => i.groupKey))].slice(0, dialogues));
  const slice = items.filter((i) => groups.has(i.groupKey));
  let written = 0;
  for (const username of annotators) {
    const user = findUserByUsername(db, username)!;
    const actor: Actor = { id: user.id, username: user.username, displayName: user.displayName, role: user.role };
    for (const item of slice) {
      const goldAnnotation = assignmentsQ.latestSubmittedAnnotationId(db, item.id, MRBENCH_GOLD_ANNOTATOR);
      const assignmentId = importsQ.assignmentIdOf(db, item.id, user.id);
      if (goldAnnotation === undefined || assignmentId === undefined) continue;
      const externalId = assignmentsQ.itemPayload(db, item.id)!.externalId;
      const labels = Object.fromEntries(
        importsQ.rubricLabelsOf(db, goldAnnotation).map((g) => {
          const d = catalog[g.dimension];
          return [d.id, d.labels[demoLabel(username, externalId, d.id, g.label, d.labels.length)]];
        }),
      );
      submitRubric(actor, { assignmentId, requestId: `demo-seed-${assignmentId}`, activeMs: 0, labels });
      written++;
    }
  }
  return written;
}

/**
 * The AITutor-EvalKit judges on the MRBench study, where their replies are items of it: each predictions file's
 * verdicts on matching items are imported as a run. Returns, per judge, how many of its replies matched.
 */
function evalkitOnMrbench(actor: Actor, studyId: number, catalog: RubricCatalog, log: (m: string) => void) {
  const db = getDb();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-seed-evalkit-'));
  try {
    for (const name of EVALKIT_JUDGE_FILES) {
      const file = path.join(publicDataDir(), 'aitutor-evalkit', name);
      const replies = new Set<string>();
      const matching: string[] = [];
      let judge = '';
      for (const rec of rubricJudgeRecords(file, 'aitutor-evalkit', catalog)) {
        if (!rec.ok) continue;
        judge = rec.value.judge;
        replies.add(rec.value.item);
        if (itemsQ.itemIdByExternalId(db, studyId, rec.value.item) !== undefined) matching.push(JSON.stringify(rec.value));
      }
      const matched = new Set(matching.map((l) => (JSON.parse(l) as { item: string }).item)).size;
      if (matching.length) {
        const filtered = path.join(tmp, `${name}.jsonl`);
        fs.writeFileSync(filtered, `${matching.join('\n')}\n`);
        importJudge(actor, studyId, filtered, 'concord', judge || (name.startsWith('auto') ? EVALKIT_AUTO_JUDGE : undefined), name);
      }
      log(
        `  AITutor-EvalKit ${judge || name}: ${matched} of ${replies.size} judged replies match an MRBench V3 item${matched ? ' (imported)' : ''}`,
      );
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The run name of MRBench V1's labels on the V3 study. */
export const MRBENCH_V1_RUN = 'mrbench-v1';

/**
 * MRBench V1's labels (`MRBench_V1.json`, an earlier and separate annotation round) imported as the judge run
 * `mrbench-v1` on an MRBench V3 study, for the replies the two releases share word for word: a real second grader
 * on the same replies, so the study's certification, bias and judge-corrected leaderboard have something to show.
 * Returns how many replies it covers, and how many V1 replies were left out because their text changed or the
 * study does not have them.
 */
export function importMrbenchV1Run(actor: Actor, studyId: number, catalog: RubricCatalog, file: string) {
  const db = getDb();
  const { lines, changed, missing } = mrbenchRunLines(file, MRBENCH_V1_RUN, new Set(catalog.map((d) => d.id)), (item) => {
    const row = itemsQ.itemByExternalId(db, studyId, item);
    return row === undefined ? undefined : ((JSON.parse(row.payload) as RubricItem).reply?.text ?? undefined);
  });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-seed-mrbench-v1-'));
  try {
    const jsonl = path.join(tmp, 'mrbench-v1.jsonl');
    fs.writeFileSync(jsonl, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    importJudge(actor, studyId, jsonl, 'concord', undefined, path.basename(file));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return { replies: lines.length, changed, missing };
}

const mrbenchFile = () => path.join(publicDataDir(), 'mrbench', 'mrbench_v3_devset.json');
const evalkitSample = () => path.join(publicDataDir(), 'aitutor-evalkit', 'test_sample.json');
const evalkitJudges = () => EVALKIT_JUDGE_FILES.map((f) => path.join(publicDataDir(), 'aitutor-evalkit', f));

/** The rubric studies of the demo, in the order a fresh seed makes them (see `DEMO_STUDIES` in seed.ts). */
export const RUBRIC_DEMO_STUDIES: DemoStudy[] = [
  {
    // Three reviewers per reply: MRBench's gold labels, and the two demo annotators.
    name: 'MRBench V3 dev set',
    what: 'the MRBench V3 rubric study',
    needs: () => [mrbenchFile()],
    reviewers: ['ann1', 'ann2'],
    adjudicator: 'adj',
    make(actor, log, say) {
      const study = createStudy(actor, {
        kind: 'rubric',
        name: 'MRBench V3 dev set',
        guidelines: demoGuidelines('rubric'),
        dimensions: 'mrbench-v3',
        payRate: 0.3,
        reviewersPerItem: 3,
        seed: 6,
      });
      const catalog = study.dimensions!;
      const report = importItems(actor, study.id, mrbenchFile(), 'mrbench');
      setStudyMembers(actor, study.id, { usernames: ['ann1', 'ann2'], adjudicator: 'adj' });
      openStudy(actor, study.id);
      const submitted = submitDemoLabels(study.id, catalog, ['ann1', 'ann2'], DEMO_SLICE_DIALOGUES);
      log(
        `Study ${study.id}: MRBench V3 dev set (${report.inserted} replies with MRBench's gold labels as ${MRBENCH_GOLD_ANNOTATOR}; ann1 and ann2 ` +
          `each have ${submitted / 2} replies of ${DEMO_SLICE_DIALOGUES} dialogues submitted by the seed, labels made from gold with ` +
          `${Math.round(DEMO_CHANGE_RATE * 100)} % deliberate changes (not human labels); adjudicated by adj)`,
      );
      const v1 = path.join(publicDataDir(), 'mrbench', 'MRBench_V1.json');
      if (fs.existsSync(v1)) {
        const run = importMrbenchV1Run(actor, study.id, catalog, v1);
        log(
          `  ${MRBENCH_V1_RUN}: MRBench V1's own labels (an earlier annotation round) on the ${run.replies} replies V1 shares word for word, ` +
            `imported as a judge run to certify against gold (${run.changed} V1 replies differ in text, ${run.missing} are not in V3)`,
        );
      } else say(`Skipped the ${MRBENCH_V1_RUN} judge run on MRBench V3: ${v1} was not found (\`npx concord data fetch\` brings it).`);
      const kit = path.join(publicDataDir(), 'aitutor-evalkit');
      if (fs.existsSync(kit)) evalkitOnMrbench(actor, study.id, catalog, log);
    },
  },
  {
    name: 'Rubric example (hand-written)',
    what: 'the hand-written rubric example',
    needs: () => [],
    standsInFor: 'MRBench V3 dev set',
    reviewers: ['ann1', 'ann2'],
    adjudicator: 'adj',
    make(actor, log) {
      const study = createStudy(actor, {
        kind: 'rubric',
        name: 'Rubric example (hand-written)',
        guidelines: demoGuidelines('rubric'),
        dimensions: 'mrbench-v3',
        payRate: 0.3,
        seed: 6,
      });
      const report = importItems(actor, study.id, path.join(here, 'kmp-style', 'rubric.jsonl'), 'concord');
      setStudyMembers(actor, study.id, { usernames: ['ann1', 'ann2'], adjudicator: 'adj' });
      openStudy(actor, study.id);
      log(`Study ${study.id}: Rubric example (${report.inserted} hand-written replies to 3 dialogues, ann1 and ann2, adjudicated by adj)`);
    },
  },
  {
    name: 'AITutor-EvalKit sample',
    what: 'the AITutor-EvalKit rubric study',
    needs: () => [evalkitSample(), ...evalkitJudges()],
    reviewers: ['ann3', 'ann4'],
    adjudicator: 'adj',
    make(actor, log) {
      const study = createStudy(actor, {
        kind: 'rubric',
        name: 'AITutor-EvalKit sample',
        guidelines: demoGuidelines('rubric'),
        dimensions: 'mrbench-v3',
        payRate: 0.3,
        seed: 7,
      });
      const report = importItems(actor, study.id, evalkitSample(), 'aitutor-evalkit');
      setStudyMembers(actor, study.id, { usernames: ['ann3', 'ann4'], adjudicator: 'adj' });
      openStudy(actor, study.id);
      const runs = evalkitJudges().map((file) => importJudge(actor, study.id, file, 'aitutor-evalkit'));
      log(
        `Study ${study.id}: AITutor-EvalKit sample (${report.inserted} replies for ann3 and ann4; judges ` +
          `${runs.map((r) => `${r.run} (${r.labels} verdicts, ${r.unparsed.length} unreadable)`).join(', ')})`,
      );
    },
  },
];
