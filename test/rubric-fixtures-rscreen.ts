import path from 'node:path';
import { getDb } from '@/db/client';
import * as studiesQ from '@/db/queries/studies';
import { canonicalJson, contentHash } from '@/lib/io/canonical';
import { publicDataDir } from '@/lib/io/public-data';
import { rubricItemRecords } from '@/lib/io/rubric-records';
import type { Actor } from '@/lib/server/actor';
import { openStudy, setStudyMembers } from '@/lib/server/studies/studies';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import type { RubricCatalog, RubricItem } from '@/lib/validation/rubric';

/*
 * A FIXTURE, not Concord code: creates a rubric study the way study creation and the rubric item import will once
 * they are on main (the study row with its catalog in `criteria`, the items with their canonical payload, `source_a`
 * = reply.source and `group_key` = group), then chooses people and opens it with the real use-cases. Switch to
 * `createStudy --kind rubric` and `importItems` when those land.
 */

export type RubricStudySpec = {
  name: string;
  catalog?: RubricCatalog;
  items: RubricItem[];
  reviewers: string[];
  adjudicator?: string;
  reviewersPerItem?: number;
  groundTruthRule?: 'adjudicated' | 'majority';
  guidelines?: string;
  seed?: number;
};

export function createRubricStudy(lead: Actor, spec: RubricStudySpec): number {
  const db = getDb();
  const study = studiesQ.insertStudy(db, {
    kind: 'rubric',
    name: spec.name,
    guidelines: spec.guidelines ?? '',
    reviewersPerItem: spec.reviewersPerItem ?? 2,
    seed: spec.seed ?? 7,
    principles: [],
    criteria: spec.catalog ?? MRBENCH_V3_CATALOG,
    groundTruthRule: spec.groundTruthRule ?? 'adjudicated',
    createdBy: lead.id,
  });
  const insert = db.$client.prepare(
    `INSERT INTO items (study_id, external_id, position, payload, content_hash, source_a, group_key)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  db.$client.transaction(() => {
    spec.items.forEach((item, i) =>
      insert.run(study.id, item.id, i + 1, canonicalJson(item), contentHash(item), item.reply?.source ?? null, item.group ?? null),
    );
  })();
  setStudyMembers(lead, study.id, { usernames: spec.reviewers, adjudicator: spec.adjudicator });
  openStudy(lead, study.id);
  return study.id;
}

/** The first `dialogues` dialogues of the MRBench V3 dev set (public data), each tutor's reply an item of the group. */
export function mrbenchItems(dialogues: number, tutors?: readonly string[]): RubricItem[] {
  const file = path.join(publicDataDir(), 'mrbench', 'mrbench_v3_devset.json');
  const out: RubricItem[] = [];
  const groups = new Set<string>();
  for (const r of rubricItemRecords(file, 'mrbench')) {
    if (!r.ok) throw new Error(`MRBench record ${r.line}: ${JSON.stringify(r.errors)}`);
    const item = r.value;
    if (!groups.has(item.group!) && groups.size === dialogues) break;
    groups.add(item.group!);
    if (tutors && !tutors.includes(item.reply!.source)) continue;
    out.push(item);
  }
  return out;
}

/** A FIXTURE: a finished judge run with verdicts as codes (switch to `importJudge` for rubric when it lands). */
export function addRubricJudgeRun(
  lead: Actor,
  studyId: number,
  name: string,
  verdicts: { item: string; dimension: number; label: number; sample?: number; rationale?: string }[],
): number {
  const db = getDb().$client;
  const runId = Number(
    db
      .prepare(
        `INSERT INTO judge_runs (study_id, name, format, filename, unparsed, state, created_by) VALUES (?, ?, 'concord', 'fixture.jsonl', '[]', 'done', ?)`,
      )
      .run(studyId, name, lead.id).lastInsertRowid,
  );
  const itemId = db.prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck();
  const insert = db.prepare(
    'INSERT INTO rubric_judge_labels (run_id, item_id, dimension, sample, label, rationale) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const v of verdicts) insert.run(runId, itemId.get(studyId, v.item), v.dimension, v.sample ?? 1, v.label, v.rationale ?? null);
  return runId;
}
