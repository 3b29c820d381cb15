import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { rubricReview } from './review';
import { rubricLabels } from './labels';
import { rubricAdjudication } from './adjudication';

export const rubricKind = {
  id: 'rubric',
  name: KIND_NAMES.rubric.name,
  adjudication: rubricAdjudication,
  labels: rubricLabels,
  review: rubricReview,
} satisfies StudyKindContract;
