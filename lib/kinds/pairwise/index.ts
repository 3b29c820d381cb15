import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { pairwiseImports } from './imports';
import { pairwiseJudges } from './judges';

export const pairwiseKind = {
  id: 'pairwise',
  name: KIND_NAMES.pairwise.name,
  imports: pairwiseImports,
  judges: pairwiseJudges,
} satisfies StudyKindContract;
