import type { StudyKindContract } from '../contract';
import { pairwiseGroundTruth } from './ground-truth';
import { pairwiseGold } from './gold';
import { KIND_NAMES } from '../names';
import { pairwiseImports } from './imports';
import { pairwiseJudges } from './judges';
import { pairwiseReports } from './reports';
import { pairwiseCatalog } from './catalog';
import { pairwiseReview } from './review';
import { pairwiseLabels } from './labels';
import { pairwiseAdjudication } from './adjudication';

export const pairwiseKind = {
  id: 'pairwise',
  name: KIND_NAMES.pairwise.name,
  imports: pairwiseImports,
  judges: pairwiseJudges,
  reports: pairwiseReports,
  catalog: pairwiseCatalog,
  adjudication: pairwiseAdjudication,
  labels: pairwiseLabels,
  review: pairwiseReview,
  gold: pairwiseGold,
  groundTruth: pairwiseGroundTruth,
} satisfies StudyKindContract;
