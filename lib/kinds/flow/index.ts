import type { StudyKindContract } from '../contract';
import { flowGold } from './gold';
import { KIND_NAMES } from '../names';
import { flowImports } from './imports';
import { flowReports } from './reports';
import { flowCatalog } from './catalog';
import { flowReview } from './review';

export const flowKind = {
  id: 'flow_review',
  name: KIND_NAMES.flow_review.name,
  imports: flowImports,
  judges: null,
  reports: flowReports,
  catalog: flowCatalog,
  adjudication: null,
  labels: null,
  review: flowReview,
  gold: flowGold,
  groundTruth: null,
} satisfies StudyKindContract;
