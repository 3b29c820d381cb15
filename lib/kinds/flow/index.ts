import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { flowReports } from './reports';

export const flowKind = {
  id: 'flow_review',
  name: KIND_NAMES.flow_review.name,
  reports: flowReports,
} satisfies StudyKindContract;
