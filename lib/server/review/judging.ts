import 'server-only';
import type { Actor } from '../actor';
import type { JudgeAssignmentDto } from './dto';
import { submitAs, type SubmitResult } from './submit';
import { getAssignmentView } from './flow-review';

// The item as the screen shows it is the pairwise kind's; judges and imports still ask for the criteria here.
export { blindItem, criteriaForItem } from '@/lib/kinds/pairwise/item-view';

/** A pairwise assignment of the actor's, as `getAssignmentView` gives it. */
export const getJudgeAssignment = (actor: Actor, assignmentId: number) => getAssignmentView(actor, assignmentId) as JudgeAssignmentDto;

/**
 * Records a pairwise judgment (`./submit`, with the pairwise review facet): every applicable criterion must have a
 * choice. Idempotent by request id: the same choices again answer `duplicate`, other choices under the same id are
 * a conflict.
 */
export const submitJudgment = (actor: Actor, input: unknown): SubmitResult => submitAs('pairwise', actor, input);

export { judgmentAsDraft } from '@/lib/kinds/pairwise/review';
