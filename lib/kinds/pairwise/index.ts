import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { pairwiseReports } from './reports';

export const pairwiseKind = {
  id: 'pairwise',
  name: KIND_NAMES.pairwise.name,
  reports: pairwiseReports,
} satisfies StudyKindContract;
