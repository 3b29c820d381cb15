/**
 * The registered kinds of study. Server code asks `studyKind(study.kind)` for whatever differs by kind instead of
 * branching on the kind's name; adding a kind is adding its folder and one line here.
 */
import type { StudyKindContract, StudyKindId } from './contract';
import { flowKind } from './flow';
import { pairwiseKind } from './pairwise';
import { rubricKind } from './rubric';

const KINDS = {
  flow_review: flowKind,
  pairwise: pairwiseKind,
  rubric: rubricKind,
} satisfies Record<StudyKindId, StudyKindContract>;

export type RegisteredKinds = typeof KINDS;

export function studyKind<K extends StudyKindId>(id: K): RegisteredKinds[K] {
  return KINDS[id];
}

export const ALL_KINDS: readonly StudyKindContract[] = Object.values(KINDS);
