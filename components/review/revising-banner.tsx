'use client';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { RevisingDto } from '@/lib/server/review/dto';

/**
 * Says that the item on screen revises an earlier submission, which keeps counting until this revision is submitted,
 * and offers to keep that submission as it is (the revision is given up, the queue moves on).
 */
export function RevisingBanner({ revising, onAbandon, pending }: { revising: RevisingDto; onAbandon: () => void; pending: boolean }) {
  return (
    <Alert tone="info" className="mb-3 flex flex-wrap items-center gap-3" data-testid="revising-banner">
      <p className="min-w-0 flex-1">
        Revising your submission of <time dateTime={revising.submittedAt}>{revising.submittedAt.replace('T', ' ').slice(0, 16)} UTC</time> —
        it counts until you submit this revision.
      </p>
      <Button variant="secondary" size="sm" onClick={onAbandon} pending={pending}>
        Keep my submission
      </Button>
    </Alert>
  );
}
