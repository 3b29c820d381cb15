import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { publicDataDir } from '@/lib/io/public-data';
import { rubricItemRecords } from '@/lib/kinds/rubric/records';
import type { Actor } from '@/lib/server/actor';
import { importItems } from '@/lib/server/imports/imports';
import { importJudge } from '@/lib/server/imports/judge-import';
import { createStudy, openStudy, setStudyMembers } from '@/lib/server/studies/studies';
import type { RubricCatalog, RubricItem } from '@/lib/validation/rubric';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';

/*
 * Builds rubric studies for the review, adjudication and ground-truth tests the way a lead does: create the study
 * with its dimensions, import the items as Concord JSONL, choose the people and open it, all through the real
 * use-cases; judge runs come in through the judge import.
 */

export type RubricStudySpec = {
  name: string;
  catalog?: RubricCatalog;
  items: RubricItem[];
  reviewers: string[];
  adjudicator?: string;
  reviewersPerItem?: number;
  groundTruthRule?: 'adjudicated' | 'majority';
  seed?: number;
};

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function withTempFile<T>(name: string, content: string, fn: (file: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-rubric-'));
  try {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return fn(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function createRubricStudy(lead: Actor, spec: RubricStudySpec): number {
  const id = createStudy(lead, {
    kind: 'rubric',
    name: spec.name,
    dimensions: spec.catalog ?? MRBENCH_V3_CATALOG,
    reviewersPerItem: spec.reviewersPerItem ?? 2,
    seed: spec.seed ?? 7,
    groundTruthRule: spec.groundTruthRule ?? 'adjudicated',
  }).id;
  withTempFile('items.jsonl', jsonl(spec.items), (file) => importItems(lead, id, file, 'concord'));
  setStudyMembers(lead, id, { usernames: spec.reviewers, adjudicator: spec.adjudicator });
  openStudy(lead, id);
  return id;
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

/** Imports a judge run: one line per item and sample, labels by dimension id. */
export function addRubricJudgeRun(
  lead: Actor,
  studyId: number,
  name: string,
  lines: { item: string; labels: Record<string, string>; sample?: number; rationale?: string }[],
) {
  return withTempFile('judge.jsonl', jsonl(lines.map((l) => ({ judge: name, ...l }))), (file) =>
    importJudge(lead, studyId, file, 'concord', name),
  );
}
