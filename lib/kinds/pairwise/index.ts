import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { pairwiseLabels } from './labels';
import { pairwiseAdjudication } from './adjudication';

export const pairwiseKind = {
  id: 'pairwise',
  name: KIND_NAMES.pairwise.name,
  adjudication: pairwiseAdjudication,
  labels: pairwiseLabels,
} satisfies StudyKindContract;
