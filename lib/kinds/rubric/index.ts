import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { rubricImports } from './imports';
import { rubricJudges } from './judges';
import { rubricReports } from './reports';

export const rubricKind = {
  id: 'rubric',
  name: KIND_NAMES.rubric.name,
  imports: rubricImports,
  judges: rubricJudges,
  reports: rubricReports,
} satisfies StudyKindContract;
