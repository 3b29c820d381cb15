'use client';

import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActionResult } from '@/lib/auth/handlers';
import { adjudicationItemKey, adjudicationQueueKey } from '@/lib/query/review';
import type { AdjudicationQueueDto } from '@/lib/server/review/dto';
import { newRequestId } from './request-id';
import { nextWithout, rowMove, rulingsOf } from './rows';
import { type DisputedRow, type RulingState, initialRulings, overrules, problemsHint, rulingProblems } from './rulings';
import { useDraftState } from './use-draft-state';
import { useReviewKeys, type ReviewKeys } from './use-review-keys';

const UNREACHABLE = 'The server could not be reached; your labels are kept. Press Enter to try again.';

export type AdjudicationOptions<V, R extends DisputedRow<V>> = {
  studyId: number;
  itemId: number;
  /** The rows the adjudicator must settle, in screen order. */
  disputed: readonly R[];
  /** The answer a key stands for on `row` (1, 2, 3… on the row's options), or null. */
  valueForKey: (e: KeyboardEvent, row: R) => V | null;
  /** i: the row's details. */
  toggleDetails: (id: string) => void;
  /** r: into the row's rationale field (opening it first where it is folded away). */
  focusRationale: (id: string) => void;
  /** Sends the settled item once, under the request id of this view of the item. */
  send: (
    rulings: { answers: Record<string, V>; rationales: Record<string, string> },
    requestId: string,
  ) => Promise<ActionResult<{ queue: AdjudicationQueueDto }>>;
  onLeaveField: NonNullable<ReviewKeys['onLeaveField']>;
};

/**
 * The settling of one disputed item on an adjudication screen, for every kind of study: the answers and rationales
 * chosen (also in a ref, so key handlers act on the newest), the rule that overruling every reviewer needs a
 * rationale, the errors per row, the hint, the keys (j/k and arrows move, i details, r rationale, the row's answer
 * keys choose and move on to the next row without one, Enter settles) and the submission, sent once per view of the
 * item: one request id for its retries and double clicks, none after it has gone through. A settled item makes way
 * for the next in the adjudication queue. The kind gives its rows, its answer keys and how its rationale field opens.
 */
export function useAdjudication<V, R extends DisputedRow<V>>(options: AdjudicationOptions<V, R>) {
  const { studyId, itemId, disputed } = options;
  const qc = useQueryClient();
  const [state, stateRef, change] = useDraftState((): RulingState<V> => initialRulings(disputed));
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
    mutationFn: (s: RulingState<V>) => latest.current.send(rulingsOf(disputed, s.answers, s.rationales), requestId.current),
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
    const s = stateRef.current;
    const problems = rulingProblems(disputed, s);
    if (problems.length > 0) {
      setErrors(Object.fromEntries(problems.map((p) => [p.id, p.message])));
      setHint(problemsHint(disputed, problems));
      // Only the row takes the focus: the keys pressed next must stay shortcuts, never land in a rationale field.
      const first = problems[0].index;
      change((x) => (x.focus === first ? x : { ...x, focus: first }));
      return;
    }
    setHint(null);
    setErrors({});
    submitting.current = true;
    submitMutate(s);
  }, [change, submitMutate, stateRef, disputed]);

  const onChoose = useCallback(
    (index: number, value: V, advance = false) => {
      const row = disputed[index];
      if (!row) return;
      clearError(row.id);
      const mustExplain = overrules(row, value) && !stateRef.current.rationales[row.id]?.trim();
      setHint(mustExplain ? `${row.name}: your label differs from every reviewer, so it needs a rationale (press r to write it).` : null);
      // The keys behave as on the judging screen: on to the next row without a label. A rationale still owed is
      // shown and asked for, never focused: only r or a click enters the field, so no shortcut lands in a text box.
      change((s) => {
        const answers = { ...s.answers, [row.id]: value };
        return { ...s, answers, focus: advance ? (nextWithout(disputed, answers, index) ?? index) : index };
      });
    },
    [disputed, change, clearError, stateRef],
  );

  const onRationale = useCallback(
    (id: string, text: string) => {
      if (text.trim()) clearError(id);
      change((s) => ({ ...s, rationales: { ...s.rationales, [id]: text } }));
    },
    [change, clearError],
  );

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
      const row = disputed[s.focus];
      switch (e.key) {
        case 'i':
          e.preventDefault();
          latest.current.toggleDetails(row.id);
          return;
        case 'r':
          // preventDefault keeps the "r" out of the field that is about to take the focus.
          e.preventDefault();
          latest.current.focusRationale(row.id);
          return;
        default: {
          const value = latest.current.valueForKey(e, row);
          if (value === null) return;
          e.preventDefault();
          onChoose(s.focus, value, true);
        }
      }
    },
  });

  const generalError = submit.data && !submit.data.ok ? submit.data.error : submit.error ? UNREACHABLE : null;
  const open = rulingProblems(disputed, state).length;
  return { state, errors, hint, trySubmit, onChoose, onRationale, onFocusRow, open, pending: submit.isPending, generalError };
}
