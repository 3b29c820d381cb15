'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { FlowContext, FlowSteps } from '@/components/flow/flow-view';
import { CHOICE_LABEL } from '@/components/pairwise/choices';
import { ItemContext } from '@/components/pairwise/item-context';
import { ResponsePair } from '@/components/pairwise/response-pair';
import { RubricDialogue, RubricReply } from '@/components/rubric/rubric-dialogue';
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
          Item {view.kind === 'flow_review' ? view.externalId : view.position}
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
      {view.kind === 'pairwise' ? (
        <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_24rem]">
          <div className="min-w-0 space-y-4">
            <ItemContext problem={view.problem} instructions={view.instructions} principles={view.principles} history={view.history} />
            <ResponsePair responses={view.responses} />
          </div>
          <section aria-labelledby="my-labels" className="min-w-0">
            <h2 id="my-labels" className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
              My labels
            </h2>
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
              {view.criteria.map((c) => (
                <li key={c.id} className="flex items-baseline justify-between gap-3 px-3 py-2" data-testid={`my-label-${c.id}`}>
                  <span className="min-w-0" title={c.description}>
                    {c.name}
                  </span>
                  <span className="shrink-0 font-medium">{view.submitted?.[c.id] ? CHOICE_LABEL[view.submitted[c.id]] : '—'}</span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      ) : view.kind === 'rubric' ? (
        <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_24rem]">
          <div className="min-w-0 space-y-4">
            <RubricDialogue problem={view.problem} history={view.history} underReview={view.reply === null} />
            {view.reply !== null ? <RubricReply text={view.reply} group={null} /> : null}
          </div>
          <section aria-labelledby="my-labels" className="min-w-0">
            <h2 id="my-labels" className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">
              My labels
            </h2>
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
              {view.dimensions.map((d) => (
                <li key={d.id} className="flex items-baseline justify-between gap-3 px-3 py-2" data-testid={`my-label-${d.id}`}>
                  <span className="min-w-0" title={d.description ?? undefined}>
                    {d.name}
                  </span>
                  <span className="shrink-0 font-medium">{view.submitted?.labels[d.id] ?? '—'}</span>
                </li>
              ))}
            </ul>
            {view.submitted?.note ? <p className="mt-2 text-sm text-slate-600">Note: {view.submitted.note}</p> : null}
          </section>
        </div>
      ) : (
        <div className="space-y-4">
          <p className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="my-decision">
            My decision: <span className="font-medium">{describeDecision(view.submitted)}</span>
            {view.submitted?.note ? <span className="block text-slate-600">Note: {view.submitted.note}</span> : null}
          </p>
          <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
            <FlowContext flow={view.flow} />
            <FlowSteps
              flow={view.flow}
              warnings={view.warnings}
              focus={-1}
              cutAfter={view.submitted?.decision === 'truncate' ? (view.submitted.afterStep ?? null) : null}
            />
          </div>
        </div>
      )}
    </div>
  );
}

function describeDecision(d: Extract<MySubmissionDto['view'], { kind: 'flow_review' }>['submitted']): string {
  if (!d) return '—';
  if (d.decision === 'truncate') return `Truncate after step ${d.afterStep}`;
  if (d.decision === 'discard') return `Discard (${(d.reasons ?? []).join(', ')})`;
  return 'Verify';
}
