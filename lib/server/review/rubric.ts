import 'server-only';
import type { Actor } from '../actor';
import type { RubricAssignmentDto } from './dto';
import { submitAs, type SubmitResult } from './submit';
import { getAssignmentView } from './flow-review';

// The catalog's name/code conversions and the blind item are the rubric kind's; review code imports them from here.
export { codesOf, dimensionDto, namesOf, rubricCatalog } from '@/lib/kinds/rubric/catalog';
export { blindRubricItem } from '@/lib/kinds/rubric/item-view';

/** A rubric assignment of the actor's, as `getAssignmentView` gives it. */
export const getRubricAssignment = (actor: Actor, assignmentId: number) => getAssignmentView(actor, assignmentId) as RubricAssignmentDto;

/**
 * Records a rubric annotation (`./submit`, with the rubric review facet): a label on every dimension, each one of
 * its dimension's labels, and an optional note; other labels under the same request id are a conflict.
 */
export const submitRubric = (actor: Actor, input: unknown): SubmitResult => submitAs('rubric', actor, input);

export { rubricAsDraft } from '@/lib/kinds/rubric/review';
