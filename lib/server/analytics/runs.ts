import 'server-only';
import { getDb } from '@/db/client';
import { judgeRunSummaries } from '@/db/queries/judge-runs';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import type { JudgeRunRecipe } from '@/db/schema';
import type { JudgeRunRecipeDto } from '../judges/dto';
import type { JudgeRunDto } from './dto';

/**
 * The judge runs of a study, by name (the order of the leaderboard's graders), with their size; a run still being
 * imported is not listed until its last batch is in. Leads and admins only: a run's name says which model judged,
 * which annotators must never learn.
 */
export function listJudgeRuns(actor: Actor, studyId: number): JudgeRunDto[] {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  return judgeRunSummaries(db, studyId).map((r) => ({
    name: r.name,
    labels: r.labels,
    unparsed: r.unparsed,
    createdAt: new Date(r.createdAt).toISOString(),
    recipe: r.recipe === null ? null : recipeDto(JSON.parse(r.recipe) as JudgeRunRecipe),
  }));
}

/** The stored recipe, field by field. */
function recipeDto(r: JudgeRunRecipe): JudgeRunRecipeDto {
  return {
    rule: r.rule,
    runs: [...r.runs],
    missing: r.missing,
    counts: { pairs: r.counts.pairs, combined: r.counts.combined, tie: r.counts.tie, missing: r.counts.missing },
  };
}
