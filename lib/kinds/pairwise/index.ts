import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';

export const pairwiseKind = {
  id: 'pairwise',
  name: KIND_NAMES.pairwise.name,
} satisfies StudyKindContract;
