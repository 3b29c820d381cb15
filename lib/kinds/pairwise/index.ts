import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { pairwiseImports } from './imports';

export const pairwiseKind = {
  id: 'pairwise',
  name: KIND_NAMES.pairwise.name,
  imports: pairwiseImports,
} satisfies StudyKindContract;
