import 'server-only';
import type { Actor } from '../actor';
import { invalid } from '../errors';
import type { ActiveQueueDto, HybridQueueDto, RubricHybridQueueDto } from './dto';
import { openHybridQueue } from './hybrid-queue';
import { openActiveQueue } from './review-queue-active';

/*
 * A review queue opened by name of its order, for the command line and the HTTP API (the hybrid dashboard's form
 * calls the two use-cases itself): `uniform` follows the hybrid plan (`openHybridQueue`), `active` draws by the
 * judge's uncertainty (`openActiveQueue`). Each use-case checks its own options; an option of the other order is
 * refused here rather than silently ignored.
 */

/** The options only the plan's order reads, and those only the active order reads. */
export const PLAN_OPTIONS = ['plan', 'target', 'epsilon', 'delta', 'lenient', 'sample', 'perTutor'] as const;
export const ACTIVE_OPTIONS = ['source', 'secondJudge', 'budget', 'tau'] as const;

export function openReviewQueue(
  actor: Actor,
  studyId: number,
  input: Record<string, unknown>,
): HybridQueueDto | RubricHybridQueueDto | ActiveQueueDto {
  const { order = 'uniform', ...options } = input;
  if (order !== 'uniform' && order !== 'active') throw invalid('order is uniform or active.', { order: 'uniform or active' });
  const other = order === 'active' ? PLAN_OPTIONS : ACTIVE_OPTIONS;
  const wrong = other.filter((k) => options[k] !== undefined && options[k] !== false);
  if (wrong.length)
    throw invalid(
      `${wrong.join(', ')}: not an option of the ${order} order (order ${order === 'active' ? 'uniform' : 'active'}).`,
      Object.fromEntries(wrong.map((k) => [k, `Not an option of the ${order} order`])),
    );
  return order === 'active' ? openActiveQueue(actor, studyId, options) : openHybridQueue(actor, studyId, options);
}
