import path from 'node:path';
import Database from 'better-sqlite3';
import { canonicalJson, contentHash } from '../../lib/io/canonical';
import { publicDataDir } from '../../lib/io/public-data';
import { rubricItemRecords } from '../../lib/io/rubric-records';
import type { RubricItem } from '../../lib/validation/rubric';
import { MRBENCH_V3_CATALOG } from '../../lib/validation/rubric-catalogs';
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

/**
 * A FIXTURE until rubric study creation and import are on main: writes a rubric study (MRBench V3 dimensions, two
 * reviewers per item) and its items into the end-to-end database as those will, then chooses ann1 and ann2 as
 * reviewers and adj as adjudicator and opens it with the real CLI.
 */
export function createRubricStudy(name: string, items: RubricItem[]): number {
  const db = new Database(process.env.CONCORD_E2E_DB!);
  try {
    db.pragma('busy_timeout = 5000');
    const lead = db.prepare(`SELECT id FROM users WHERE username = 'lead'`).pluck().get() as number;
    const studyId = db.transaction(() => {
      const id = Number(
        db
          .prepare(
            `INSERT INTO studies (kind, name, reviewers_per_item, seed, principles, criteria, created_by) VALUES ('rubric', ?, 2, 11, '[]', ?, ?)`,
          )
          .run(name, JSON.stringify(MRBENCH_V3_CATALOG), lead).lastInsertRowid,
      );
      const insert = db.prepare(
        'INSERT INTO items (study_id, external_id, position, payload, content_hash, source_a, group_key) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      items.forEach((it, i) =>
        insert.run(id, it.id, i + 1, canonicalJson(it), contentHash(it), it.reply?.source ?? null, it.group ?? null),
      );
      return id;
    })();
    concord(['study', 'members', String(studyId), 'ann1', 'ann2', '--adjudicator', 'adj']);
    concord(['study', 'open', String(studyId)]);
    return studyId;
  } finally {
    db.close();
  }
}

/** A FIXTURE: a finished judge run on a rubric study, one verdict per item on the first dimension. */
export function addJudgeRun(studyId: number, name: string, rationale: string) {
  const db = new Database(process.env.CONCORD_E2E_DB!);
  try {
    db.pragma('busy_timeout = 5000');
    const lead = db.prepare(`SELECT id FROM users WHERE username = 'lead'`).pluck().get() as number;
    db.transaction(() => {
      const run = Number(
        db
          .prepare(
            `INSERT INTO judge_runs (study_id, name, format, filename, unparsed, state, created_by) VALUES (?, ?, 'concord', 'f.jsonl', '[]', 'done', ?)`,
          )
          .run(studyId, name, lead).lastInsertRowid,
      );
      db.prepare(
        `INSERT INTO rubric_judge_labels (run_id, item_id, dimension, sample, label, rationale) SELECT ?, id, 0, 1, 0, ? FROM items WHERE study_id = ?`,
      ).run(run, rationale, studyId);
    })();
  } finally {
    db.close();
  }
}
