import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { rubricReports } from './reports';

export const rubricKind = {
  id: 'rubric',
  name: KIND_NAMES.rubric.name,
  reports: rubricReports,
} satisfies StudyKindContract;
