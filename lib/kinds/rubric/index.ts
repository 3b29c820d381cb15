import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { rubricImports } from './imports';

export const rubricKind = {
  id: 'rubric',
  name: KIND_NAMES.rubric.name,
  imports: rubricImports,
} satisfies StudyKindContract;
