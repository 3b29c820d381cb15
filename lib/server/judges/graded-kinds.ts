import { studyKind } from '@/lib/kinds/registry';
import type { JudgeGrading } from '@/lib/kinds/facets/judges';
import type { StudyKind } from '@/lib/validation/labels';

/*
 * Whether a study's judge runs can carry worked examples: its kind's judges facet says how its runs are graded
 * against the settled ground truth (`grading`), and so how the comparison of runs can leave items out
 * (`graded.ts` reads them). Kept apart from `graded.ts` so that the launch use-cases, which the server's start-up
 * loads, do not pull in the analytics loaders.
 */

/** How the study kind's runs are graded, or null when its templates carry no worked examples. */
export const gradingOf = (study: { kind: StudyKind }): JudgeGrading | null => studyKind(study.kind).judges?.grading ?? null;

/** Whether the runs of this study's kind can carry worked examples (and be compared without them). */
export const canGrade = (study: { kind: StudyKind }) => gradingOf(study) !== null;
