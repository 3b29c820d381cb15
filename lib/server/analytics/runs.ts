import 'server-only';
import { getDb } from '@/db/client';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import type { JudgeRunDto } from './dto';

/**
 * The judge runs of a study, by name (the order of the leaderboard's graders), with their size; a run still being
 * imported is not listed until its last batch is in. Leads and admins only: a run's name says which model judged,
 * which annotators must never learn.
 */
export function listJudgeRuns(actor: Actor, studyId: number): JudgeRunDto[] {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  const rows = db.$client
    .prepare(
      `SELECT r.name, json_array_length(r.unparsed) AS unparsed, r.created_at AS createdAt,
              (SELECT count(*) FROM judge_labels j WHERE j.run_id = r.id) AS labels
         FROM judge_runs r WHERE r.study_id = ? AND r.state = 'done' ORDER BY r.name`,
    )
    .all(studyId) as { name: string; unparsed: number; createdAt: number; labels: number }[];
  return rows.map((r) => ({ name: r.name, labels: r.labels, unparsed: r.unparsed, createdAt: new Date(r.createdAt).toISOString() }));
}
