/**
 * What each kind of study is called and what it is for, in words. Pure data, so the browser (the new-study form, the
 * studies list) and the server read the same names; the kinds' contracts take their `name` from here.
 */
import type { StudyKind } from '@/lib/validation/labels';

export const KIND_NAMES = {
  flow_review: { name: 'Flow review', purpose: 'verify, truncate or discard dialogue flows' },
  pairwise: { name: 'Pairwise', purpose: 'two blinded tutor replies judged per criterion' },
  rubric: { name: 'Rubric', purpose: 'one reply (or dialogue) labelled on each dimension' },
} as const satisfies Record<StudyKind, { name: string; purpose: string }>;

export function kindName(kind: StudyKind): string {
  return KIND_NAMES[kind].name;
}
