import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { pairwiseImports } from './imports';
import { pairwiseJudges } from './judges';
import { pairwiseReports } from './reports';

export const pairwiseKind = {
  id: 'pairwise',
  name: KIND_NAMES.pairwise.name,
  imports: pairwiseImports,
  judges: pairwiseJudges,
  reports: pairwiseReports,
} satisfies StudyKindContract;
