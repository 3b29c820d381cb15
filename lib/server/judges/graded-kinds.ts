import type { StudyKind } from '@/lib/validation/labels';

/*
 * The kinds whose judge runs can carry worked examples: those whose comparison of runs can leave items out
 * (`graded.ts` reads them). A rubric study's comparison is the rubric alignment report (macro-F1, lenient κ), which
 * cannot leave items out yet (decision 0033). Kept apart from `graded.ts` so that the launch use-cases, which the
 * server's start-up loads, do not pull in the analytics loaders.
 */
export const GRADED_KINDS: Record<StudyKind, boolean> = { flow_review: false, pairwise: true, rubric: false };

/** Whether the runs of this study's kind can carry worked examples (and be compared without them). */
export const canGrade = (study: { kind: StudyKind }) => GRADED_KINDS[study.kind];
