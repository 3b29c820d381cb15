import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';

export const rubricKind = {
  id: 'rubric',
  name: KIND_NAMES.rubric.name,
} satisfies StudyKindContract;
