import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { publicDataDir } from '../../lib/io/public-data';
import { rubricItemRecords } from '../../lib/kinds/rubric/records';
import type { RubricItem } from '../../lib/validation/rubric';
import { concord } from './cli';

/** The first `dialogues` dialogues of the MRBench V3 dev set, only the replies of `tutors`. */
export function mrbenchSlice(dialogues: number, tutors: readonly string[]): RubricItem[] {
  const out: RubricItem[] = [];
  const groups = new Set<string>();
  for (const r of rubricItemRecords(path.join(publicDataDir(), 'mrbench', 'mrbench_v3_devset.json'), 'mrbench')) {
    if (!r.ok) throw new Error(`MRBench record ${r.line} is not readable`);
    if (!groups.has(r.value.group!) && groups.size === dialogues) break;
    groups.add(r.value.group!);
    if (tutors.includes(r.value.reply!.source)) out.push(r.value);
  }
  return out;
}

function withJsonl<T>(rows: unknown[], fn: (file: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-rubric-e2e-'));
  try {
    const file = path.join(dir, 'lines.jsonl');
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return fn(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A rubric study on the MRBench V3 dimensions, two reviewers per item (ann1 and ann2) and adj as adjudicator, made
 * with the CLI as a lead would: create, import the items, choose the people, open.
 */
export function createRubricStudy(name: string, items: RubricItem[]): number {
  const id = JSON.parse(
    concord(['study', 'create', '--kind', 'rubric', '--dimensions', 'mrbench-v3', '--reviewers', '2', '--name', name, '--json']),
  ).id as number;
  withJsonl(items, (file) => concord(['import', 'items', '--study', String(id), file]));
  concord(['study', 'members', String(id), 'ann1', 'ann2', '--adjudicator', 'adj']);
  concord(['study', 'open', String(id)]);
  return id;
}

/** Imports a judge run with one verdict per item on the first dimension ("No") and the given rationale. */
export function addJudgeRun(studyId: number, items: RubricItem[], name: string, rationale: string) {
  withJsonl(
    items.map((it) => ({ item: it.id, judge: name, labels: { mistake_identification: 'No' }, rationale })),
    (file) => concord(['import', 'judge', '--study', String(studyId), '--judge', name, file]),
  );
}

/**
 * The rubric study of the dashboards' service tests (e2e/support/make-rubric-study.ts: eight replies by tutors t1 and
 * t2 reviewed by ann1 and ann2, a judge run "gpt" with two samples), written on the end-to-end server's database;
 * returns its id.
 */
export function makeReportsRubricStudy(): number {
  const tsx = createRequire(import.meta.url).resolve('tsx');
  const out = execFileSync(process.execPath, ['--conditions=react-server', '--import', tsx, 'e2e/support/make-rubric-study.ts'], {
    env: { ...process.env, CONCORD_DB: process.env.CONCORD_E2E_DB },
    encoding: 'utf8',
  });
  const study = Number(out.trim().split('\n').at(-1));
  if (!(study > 0)) throw new Error(`make-rubric-study printed no study id: ${out}`);
  return study;
}
