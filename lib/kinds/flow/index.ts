import type { StudyKindContract } from '../contract';
import { KIND_NAMES } from '../names';
import { flowImports } from './imports';

export const flowKind = {
  id: 'flow_review',
  name: KIND_NAMES.flow_review.name,
  imports: flowImports,
  judges: null,
} satisfies StudyKindContract;
