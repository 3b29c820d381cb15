import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { flowImports } from './imports';
import { flowReports } from './reports';

export const flowKind = {
  id: 'flow_review',
  name: KIND_NAMES.flow_review.name,
  imports: flowImports,
  judges: null,
  reports: flowReports,
} satisfies StudyKindContract;
