'use client';

import { useQueryClient } from '@tanstack/react-query';
import type { ItemTools } from '@/components/review/item-tools';
import { assignmentKey } from '@/lib/query/review';
import type { QueueDto, RemarksDto } from '@/lib/server/review/dto';
import { commentItemAction, flagItemAction } from '@/app/(app)/studies/[id]/review/actions';
import type { useReviewQueue } from './use-review-queue';

type Shown = { assignmentId: number; queuePosition: number; remarks?: RemarksDto };

/**
 * Skip, flag and comment for the item a review screen shows, whatever its kind: the shell renders them from what
 * this returns. A saved flag or comment goes into the cached item, so the screen shows it at once.
 */
export function useItemTools<T extends Shown>(review: ReturnType<typeof useReviewQueue<T>>, queue: QueueDto): ItemTools | null {
  const qc = useQueryClient();
  const shown = review.shown;
  if (!shown) return null;
  const { assignmentId } = shown;
  const open = queue.status === 'open';
  const store = (remarks: RemarksDto) => qc.setQueryData<T>(assignmentKey(assignmentId), (old) => (old ? { ...old, remarks } : old));
  const save = async (send: () => ReturnType<typeof flagItemAction>) => {
    const res = await send();
    if (!res.ok) return res.error;
    store(res.data);
    return null;
  };
  return {
    assignmentId,
    remarks: shown.remarks ?? { flagReason: null, comment: null },
    // A revision is not in the queue's order (it comes first until it is submitted or given up): nothing to skip.
    canSkip: open && queue.upcomingIds.length > 0 && !review.isSending(assignmentId) && review.revising === null,
    canRemark: open,
    onSkip: () => review.skip(assignmentId, shown.queuePosition),
    skipPending: review.skipPending,
    onFlag: (reason) => save(() => flagItemAction({ assignmentId, reason })),
    onComment: (comment) => save(() => commentItemAction({ assignmentId, comment })),
  };
}
