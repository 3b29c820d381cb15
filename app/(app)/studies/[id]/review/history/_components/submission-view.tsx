'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { submissionScreen } from '@/components/kinds/submissions';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { assignmentKey, queueKey } from '@/lib/query/review';
import type { MySubmissionDto } from '@/lib/server/review/dto';
import { reviseSubmissionAction } from '../../actions';

/** A submitted item as its reviewer saw it, with their labels, and the way to revise it while that is allowed. */
export function SubmissionView({ submission }: { submission: MySubmissionDto }) {
  const router = useRouter();
  const qc = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { view } = submission;
  const { View, itemLabel } = submissionScreen(view);

  const revise = async () => {
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      const res = await reviseSubmissionAction({ assignmentId: submission.assignmentId });
      if (!res.ok) {
        setError(res.error);
        setPending(false);
        return;
      }
      // The review screen must not show the queue or the item as they were cached before: the item is under
      // revision, first, with its labels as the draft.
      qc.removeQueries({ queryKey: queueKey(submission.studyId), exact: true });
      qc.removeQueries({ queryKey: assignmentKey(submission.assignmentId), exact: true });
      router.push(`/studies/${submission.studyId}/review`);
    } catch {
      setError('The server could not be reached; nothing was changed.');
      setPending(false);
    }
  };

  return (
    <div className="space-y-4" data-testid="submission-view">
      <div className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm">
        <span className="font-medium" data-testid="item-label">
          Item {itemLabel(view)}
        </span>
        <span className="text-slate-500">
          Submitted <time dateTime={submission.submittedAt}>{submission.submittedAt.replace('T', ' ').slice(0, 16)} UTC</time> · revision{' '}
          {submission.revision}
        </span>
        <div className="ml-auto flex items-center gap-2">
          {submission.editable ? (
            <Button onClick={revise} pending={pending}>
              Revise
            </Button>
          ) : (
            <span className="text-slate-500" data-testid="not-editable">
              Settled: the study is closed or the item has been adjudicated, so it can no longer be changed.
            </span>
          )}
        </div>
      </div>
      {submission.editable ? (
        <p className="text-sm text-slate-500">
          Revising puts this item first in your queue with your labels filled in. This submission keeps counting until you submit the
          revision, which is then recorded as a new one.
        </p>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {view.remarks.flagReason || view.remarks.comment ? (
        <div className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
          {view.remarks.flagReason ? <p className="text-amber-800">Flagged: {view.remarks.flagReason}</p> : null}
          {view.remarks.comment ? <p className="text-slate-700">Your comment: {view.remarks.comment}</p> : null}
        </div>
      ) : null}
      <View view={view} />
    </div>
  );
}
