import { getDb } from '@/db/client';
import type { Actor } from '@/lib/server/actor';
import { summarize } from '@/lib/server/ground-truth/ground-truth';
import type { GroundTruthSummaryDto } from '@/lib/server/ground-truth/dto';
import { studyForStaff } from '@/lib/server/review/access';

/** The ground-truth counts of a study as its staff would see them, for tests that check what a step changed. */
export function groundTruthSummary(actor: Actor, studyId: number): GroundTruthSummaryDto {
  const db = getDb();
  return summarize(db, studyForStaff(db, actor, studyId));
}
