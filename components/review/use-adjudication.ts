'use client';

import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActionResult } from '@/lib/auth/handlers';
import { adjudicationItemKey, adjudicationQueueKey } from '@/lib/query/review';
import type { AdjudicationQueueDto } from '@/lib/server/review/dto';
import { newRequestId } from './request-id';
import { rowMove } from './rows';
import { useDraftState } from './use-draft-state';
import { useReviewKeys, type ReviewKeys } from './use-review-keys';

const UNREACHABLE = 'The server could not be reached; your labels are kept. Press Enter to try again.';

/** Something that keeps a disputed row from being settled. */
export type AdjudicationProblem = { index: number; id: string; message: string };

export type AdjudicationOptions<S extends { focus: number }, P extends AdjudicationProblem> = {
  studyId: number;
  itemId: number;
  /** The rows the adjudicator must settle, in screen order. */
  disputed: readonly { id: string }[];
  initial: () => S;
  /** Everything that keeps the item from being settled, in row order. */
  problemsOf: (s: S) => P[];
  /** The hint shown when Enter is pressed with problems left. */
  problemsHint: (problems: P[]) => string;
  /** Sends the settled item once, under the request id of this view of the item. */
  send: (s: S, requestId: string) => Promise<ActionResult<{ queue: AdjudicationQueueDto }>>;
  /** The panel's own keys; j, k, ↑, ↓ and Enter are handled here, and no key acts while nothing is disputed. */
  onKey: (e: KeyboardEvent, s: S) => void;
  onLeaveField: NonNullable<ReviewKeys['onLeaveField']>;
};

/**
 * The settling of one disputed item on an adjudication screen: the labels and rationales chosen (also in a ref, so
 * key handlers act on the newest), the errors per row, the hint, and the submission, sent once per view of the
 * item: one request id for its retries and double clicks, none after it has gone through. A settled item makes
 * way for the next in the adjudication queue.
 */
export function useAdjudication<S extends { focus: number }, P extends AdjudicationProblem>(options: AdjudicationOptions<S, P>) {
  const { studyId, itemId, disputed } = options;
  const qc = useQueryClient();
  const [state, stateRef, change] = useDraftState(options.initial);
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [hint, setHint] = useState<string | null>(null);
  // One id per item view: a retried or double-clicked settle is recognised by the server and written once.
  const requestId = useRef(newRequestId());
  const submitting = useRef(false);
  const done = useRef(false);
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });

  const clearError = useCallback((id: string) => {
    setErrors((e) => {
      if (!(id in e)) return e;
      const next = { ...e };
      delete next[id];
      return next;
    });
  }, []);

  const submit = useMutation({
    mutationFn: (s: S) => latest.current.send(s, requestId.current),
    onSuccess: (res) => {
      if (!res.ok) {
        submitting.current = false;
        // Only the rows on screen: the others have no place to show an error.
        const own = Object.fromEntries(Object.entries(res.fieldErrors ?? {}).filter(([id]) => disputed.some((c) => c.id === id)));
        setErrors(own);
        const first = disputed.findIndex((c) => c.id in own);
        // The focus goes to the first row the server refused.
        if (first >= 0) change((s) => ({ ...s, focus: first }));
        void qc.invalidateQueries({ queryKey: adjudicationQueueKey(studyId), exact: true });
        return;
      }
      done.current = true;
      qc.setQueryData(adjudicationQueueKey(studyId), res.data.queue);
      qc.removeQueries({ queryKey: adjudicationItemKey(studyId, itemId), exact: true });
    },
    onError: () => {
      submitting.current = false;
    },
  });
  const { mutate: submitMutate } = submit;

  const trySubmit = useCallback(() => {
    if (submitting.current || done.current) return;
    const { problemsOf, problemsHint } = latest.current;
    const s = stateRef.current;
    const problems = problemsOf(s);
    if (problems.length > 0) {
      setErrors(Object.fromEntries(problems.map((p) => [p.id, p.message])));
      setHint(problemsHint(problems));
      // Only the row takes the focus: the keys pressed next must stay shortcuts, never land in a rationale field.
      const first = problems[0].index;
      change((x) => (x.focus === first ? x : { ...x, focus: first }));
      return;
    }
    setHint(null);
    setErrors({});
    submitting.current = true;
    submitMutate(s);
  }, [change, submitMutate, stateRef]);

  const onFocusRow = useCallback((index: number) => change((s) => (s.focus === index ? s : { ...s, focus: index })), [change]);

  useReviewKeys({
    onSubmit: trySubmit,
    onLeaveField: options.onLeaveField,
    onKey: (e) => {
      if (disputed.length === 0) return;
      const s = stateRef.current;
      const to = rowMove(e.key, s.focus, disputed.length);
      if (to !== null) {
        e.preventDefault();
        onFocusRow(to);
        return;
      }
      options.onKey(e, s);
    },
  });

  const generalError = submit.data && !submit.data.ok ? submit.data.error : submit.error ? UNREACHABLE : null;
  return { state, stateRef, change, errors, clearError, hint, setHint, trySubmit, onFocusRow, pending: submit.isPending, generalError };
}
