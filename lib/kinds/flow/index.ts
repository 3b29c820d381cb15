import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';

export const flowKind = {
  id: 'flow_review',
  name: KIND_NAMES.flow_review.name,
  adjudication: null,
  labels: null,
} satisfies StudyKindContract;
