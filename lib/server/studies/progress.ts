import 'server-only';
import { getDb } from '@/db/client';
import * as studiesQ from '@/db/queries/studies';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import type { StudyProgressDto } from './dto';

/** How far a study has come: its items, the reviews assigned and those submitted. Staff only, as the study page. */
export function getStudyProgress(actor: Actor, studyId: number): StudyProgressDto {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  const p = studiesQ.studyProgress(db).find((r) => r.id === studyId);
  return { items: p?.items ?? 0, assigned: p?.assigned ?? 0, submitted: p?.submitted ?? 0 };
}
