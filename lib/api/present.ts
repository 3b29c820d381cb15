/**
 * The API's shape of what the use-cases return: public field names (`payRate` in currency units, people by username)
 * rather than the screens' internal ids. Only renaming happens here; every figure comes from the use-case.
 */
import type { z } from 'zod';
import type { StudyDto, StudyProgressDto } from '@/lib/server/studies/dto';
import type { studySchema } from './schemas';

export function presentStudy(s: StudyDto, progress: StudyProgressDto): z.input<typeof studySchema> {
  return {
    id: s.id,
    kind: s.kind,
    name: s.name,
    status: s.status,
    archived: s.archived,
    guidelines: s.guidelines,
    guidelinesVersion: s.guidelinesVersion,
    payRate: s.payRateCents / 100,
    reviewersPerItem: s.reviewersPerItem,
    assignmentMode: s.assignmentMode,
    groundTruthRule: s.groundTruthRule,
    seed: s.seed,
    criteria: s.criteria,
    dimensions: s.dimensions,
    members: s.members.map((m) => ({ username: m.username, displayName: m.displayName, setIndex: m.setIndex })),
    adjudicator: s.adjudicator ? { username: s.adjudicator.username, displayName: s.adjudicator.displayName } : null,
    createdAt: s.createdAt,
    openedAt: s.openedAt,
    deadline: s.deadline,
    progress,
  };
}
