'use client';

import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActionResult } from '@/lib/auth/handlers';
import { assignmentKey, sendDraft } from '@/lib/query/review';
import { rowMove } from './rows';
import { useActiveTime } from './use-active-time';
import { useDraftState } from './use-draft-state';
import { useReviewKeys } from './use-review-keys';

/** A draft saved again after this much unsent reading time, even when nothing in it changed. */
const UNSENT_TIME_MS = 1000;
/** How long a draft waits after a change before it saves itself. */
const SAVE_DELAY_MS = 400;

/** What the panel of a row-by-row review screen (pairwise judging, rubric labelling) gets from its screen. */
export type DraftPanelWiring<R> = {
  queue: { undoableId: number | null };
  onUndo: () => void;
  undoPending: boolean;
  /** Queues the submission with a request id of the queue's choosing. */
  onSubmit: (assignmentId: number, send: (requestId: string) => R) => unknown;
  sending: boolean;
  isSubmitted: (assignmentId: number) => boolean;
  submitError: string | null;
};

export type ReviewDraftOptions<D extends { focus: number }, S, Row, R> = DraftPanelWiring<R> & {
  assignment: { assignmentId: number; activeMs: number };
  /** The draft to start from: the saved draft, else what was submitted, else nothing chosen. */
  initial: () => D;
  /** What of the draft is saved on the server and kept in the cached assignment. */
  toSaved: (d: D) => S;
  /** The rows of the item, in screen order: j/k move the focus through them. */
  rows: readonly Row[];
  /** The rows that still need an answer before the draft can be submitted. */
  missingOf: (d: D) => readonly Row[];
  /** The hint shown when Enter is pressed with rows still open. */
  missingHint: (missing: readonly Row[]) => string;
  /** The submission of a complete draft, with the active time fixed when it was asked for. */
  send: (d: D, activeMs: number, requestId: string) => R;
  /** The keys of the panel itself; j, k, ↑, ↓, u and Enter are handled here. */
  onKey: (e: KeyboardEvent, d: D) => void;
};

/** The status line of a draft's autosave. */
export function draftSaveStatus(save: { isPending: boolean; data?: ActionResult<unknown>; error: unknown }): string {
  if (save.isPending) return 'Saving draft…';
  if (save.data && !save.data.ok) return `Draft not saved: ${save.data.error}`;
  if (save.error) return 'Draft not saved: the server could not be reached.';
  return save.data?.ok ? 'Draft saved.' : '';
}

/**
 * The draft of one assignment on a row-by-row review screen: the draft itself (also in a ref, so key handlers and
 * timers read the newest choices even when two keys arrive before React renders), its autosave (shortly after each
 * change, when the tab is hidden, after a failed submission, and when the item is left, into the cached copy too),
 * the active time, submitting with the hint and row focus for what is still open, and the shared keys.
 */
export function useReviewDraft<D extends { focus: number }, S, Row, R>(options: ReviewDraftOptions<D, S, Row, R>) {
  const { assignment, isSubmitted, submitError, undoPending, onSubmit, onUndo, queue, sending, rows, toSaved } = options;
  const { assignmentId } = assignment;
  const qc = useQueryClient();
  const [draft, draftRef, change] = useDraftState(options.initial);
  const initial = useRef(draft);
  /** The draft the server has (the one loaded, or the last one saved). */
  const saved = useRef(draft);
  const [hint, setHint] = useState<string | null>(null);
  const [showMissing, setShowMissing] = useState(false);
  const activeMs = useActiveTime(assignmentId, assignment.activeMs);
  const lastSentMs = useRef(assignment.activeMs);
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });

  const save = useMutation({
    mutationFn: (d: D) => {
      const ms = Math.round(activeMs.current);
      lastSentMs.current = ms;
      return sendDraft({ assignmentId, draft: toSaved(d), activeMs: ms });
    },
    onSuccess: (res, d) => {
      if (res.ok) saved.current = d;
    },
  });
  const { mutate: saveDraft } = save;

  useEffect(() => {
    if (draft === saved.current || isSubmitted(assignmentId)) return;
    const timer = window.setTimeout(() => {
      if (!isSubmitted(assignmentId)) saveDraft(draft);
    }, SAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [draft, saveDraft, isSubmitted, assignmentId]);

  // A submission that failed is no longer sent: choices changed while it was on its way are saved now.
  useEffect(() => {
    if (submitError && draftRef.current !== saved.current) saveDraft(draftRef.current);
  }, [submitError, saveDraft, draftRef]);

  // …and when the tab is hidden, also to record the active time of a reviewer who only read.
  useEffect(() => {
    const flush = () => {
      if (document.visibilityState !== 'hidden' || isSubmitted(assignmentId)) return;
      if (draftRef.current !== saved.current || activeMs.current - lastSentMs.current > UNSENT_TIME_MS) saveDraft(draftRef.current);
    };
    document.addEventListener('visibilitychange', flush);
    return () => document.removeEventListener('visibilitychange', flush);
  }, [saveDraft, activeMs, isSubmitted, assignmentId, draftRef]);

  // Leaving the item (an undo brings back an earlier one, a skip, or a submit still on its way): keep what was chosen in
  // the cached copy, so coming back (or a failed submit) shows it at once, and on the server unless it is submitted.
  useEffect(
    () => () => {
      const { toSaved } = latest.current;
      const d = draftRef.current;
      const ms = Math.round(activeMs.current);
      if (d !== initial.current) {
        qc.setQueryData(assignmentKey(assignmentId), (old: { draft?: unknown; activeMs: number } | undefined) =>
          old ? { ...old, draft: toSaved(d), activeMs: ms } : old,
        );
      }
      // Leaving an item nothing was changed on still sends the draft when more than a second of reading time has not
      // been sent, so the time spent on a skipped item is recorded.
      const unsentTime = ms - lastSentMs.current > UNSENT_TIME_MS;
      if ((d !== saved.current || unsentTime) && !isSubmitted(assignmentId)) {
        void sendDraft({ assignmentId, draft: toSaved(d), activeMs: ms }).catch(() => undefined);
      }
    },
    [qc, assignmentId, activeMs, isSubmitted, draftRef],
  );

  const trySubmit = useCallback(() => {
    if (isSubmitted(assignmentId) || undoPending) return;
    const { missingOf, missingHint, send } = latest.current;
    const d = draftRef.current;
    const missing = missingOf(d);
    if (missing.length > 0) {
      setShowMissing(true);
      setHint(missingHint(missing));
      const first = rows.indexOf(missing[0]);
      change((x) => (x.focus === first ? x : { ...x, focus: first }));
      return;
    }
    setHint(null);
    // The active time is fixed now: the item may be off screen by the time the submission goes out.
    const ms = Math.round(activeMs.current);
    onSubmit(assignmentId, (requestId) => send(d, ms, requestId));
  }, [rows, change, onSubmit, undoPending, isSubmitted, assignmentId, activeMs, draftRef]);

  const onFocusRow = useCallback((index: number) => change((d) => (d.focus === index ? d : { ...d, focus: index })), [change]);

  useReviewKeys({
    onSubmit: trySubmit,
    onKey: (e) => {
      const d = draftRef.current;
      const to = rowMove(e.key, d.focus, rows.length);
      if (to !== null) {
        e.preventDefault();
        onFocusRow(to);
        return;
      }
      if (e.key === 'u') {
        if (queue.undoableId === null || sending) return;
        e.preventDefault();
        onUndo();
        return;
      }
      options.onKey(e, d);
    },
  });

  return { draft, change, hint, setHint, showMissing, trySubmit, onFocusRow, saveStatus: draftSaveStatus(save) };
}
