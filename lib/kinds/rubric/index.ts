import type { StudyKindContract } from '../contract';
import { rubricGroundTruth } from './ground-truth';
import { rubricGold } from './gold';
import { KIND_NAMES } from '../names';
import { rubricImports } from './imports';
import { rubricJudges } from './judges';
import { rubricReports } from './reports';
import { rubricCatalogFacet } from './catalog';
import { rubricReview } from './review';
import { rubricLabels } from './labels';
import { rubricAdjudication } from './adjudication';

export const rubricKind = {
  id: 'rubric',
  name: KIND_NAMES.rubric.name,
  imports: rubricImports,
  judges: rubricJudges,
  reports: rubricReports,
  catalog: rubricCatalogFacet,
  adjudication: rubricAdjudication,
  labels: rubricLabels,
  review: rubricReview,
  gold: rubricGold,
  groundTruth: rubricGroundTruth,
} satisfies StudyKindContract;
