import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { flowCatalog } from './catalog';
import { flowReview } from './review';

export const flowKind = {
  id: 'flow_review',
  name: KIND_NAMES.flow_review.name,
  catalog: flowCatalog,
  adjudication: null,
  labels: null,
  review: flowReview,
} satisfies StudyKindContract;
