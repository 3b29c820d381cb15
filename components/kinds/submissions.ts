/**
 * How each kind shows one of a reviewer's own submissions (the review history). Kept apart from `registry.ts`
 * because the history is a client component: this module pulls in only the kinds' client-safe views.
 */
import type { ReactNode } from 'react';
import type { MySubmissionDto } from '@/lib/server/review/dto';
import type { StudyKind } from '@/lib/validation/labels';
import { FlowSubmission } from './flow/submission';
import { PairwiseSubmission } from './pairwise/submission';
import { RubricSubmission } from './rubric/submission';

type View = MySubmissionDto['view'];

type SubmissionScreen<V> = {
  /** How the item is named above it: a flow by its id, an item of a queue by its position. */
  itemLabel: (view: V) => string | number;
  View: (props: { view: V }) => ReactNode;
};

const SUBMISSION_SCREENS: { [K in StudyKind]: SubmissionScreen<Extract<View, { kind: K }>> } = {
  flow_review: { itemLabel: (view) => view.externalId, View: FlowSubmission },
  pairwise: { itemLabel: (view) => view.position, View: PairwiseSubmission },
  rubric: { itemLabel: (view) => view.position, View: RubricSubmission },
};

/** The kind's way to show `view`; the view's own `kind` picks it. */
export function submissionScreen(view: View): SubmissionScreen<View> {
  // TypeScript cannot follow that `view.kind` picks the entry typed for that very view.
  return SUBMISSION_SCREENS[view.kind] as SubmissionScreen<View>;
}
