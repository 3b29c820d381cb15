'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { newRequestId } from '@/components/review/request-id';
import type { ActionResult } from '@/lib/auth/handlers';
import { assignmentKey, queueKey, queueOptions } from '@/lib/query/review';
import type { QueueDto } from '@/lib/server/review/dto';
import { abandonRevisionAction, skipItemAction, undoLastSubmissionAction } from '@/app/(app)/studies/[id]/review/actions';

export const UNREACHABLE = 'The server could not be reached; your choices are kept. Press Enter to try again.';

/** How many of the next items are fetched ahead. */
const PREFETCH = 3;

type ItemOptions<T> = (assignmentId: number) => UseQueryOptions<T, Error, T, ReturnType<typeof assignmentKey>>;

/** Sends one submission with the request id it is given; answers with the reviewer's queue as it is afterwards. */
export type SendSubmission = (requestId: string) => Promise<ActionResult<{ queue: QueueDto }>>;

/** What a decision panel (flow or pairwise) gets from its screen. */
export type ReviewPanelProps<A> = {
  assignment: A;
  queue: QueueDto;
  onUndo: () => void;
  undoPending: boolean;
  /** Queues the submission (see useReviewQueue); false when it was not taken. */
  onSubmit: (assignmentId: number, send: SendSubmission) => boolean;
  /** A submission of this item waits for the server. */
  sending: boolean;
  /** True once an item is submitted here (until that fails or is undone): its draft is not saved again. */
  isSubmitted: (assignmentId: number) => boolean;
  submitError: string | null;
};

/**
 * The queue of a review screen (flow review or pairwise judging): the item on screen, the next one fetched ahead,
 * submitting and undo.
 *
 * A submit shows the next item at once when it is already loaded and applies the server's answer when it comes.
 * Submissions are sent one after another in the order they were made, each with a request id that stays the same
 * until the server has acknowledged it, so a retry is never written twice. When one fails, the reviewer is taken
 * back to that item with its choices and the error, and the submissions made after it are not sent. An undo waits
 * for the submissions before it, so it takes back the one just made.
 */
export function useReviewQueue<T extends { assignmentId: number }>(initialQueue: QueueDto, itemOptions: ItemOptions<T>) {
  const studyId = initialQueue.studyId;
  const qc = useQueryClient();
  const { data: serverQueue } = useQuery({ ...queueOptions(studyId), initialData: initialQueue });
  const { has: isOwnWork, add: addOwnWork } = useOwnSubmissions(studyId);
  // "Undo last" takes back only what this reviewer submitted here, in this tab: the server's last submission may be a
  // label the demo seed, an import or an earlier session made, which the reviewer never saw on this screen.
  const queue = useMemo(
    () => (serverQueue.undoableId === null || isOwnWork(serverQueue.undoableId) ? serverQueue : { ...serverQueue, undoableId: null }),
    [serverQueue, isOwnWork],
  );
  const currentId = queue.currentId;
  const current = useQuery({ ...itemOptions(currentId ?? 0), enabled: currentId !== null });

  // The next items are fetched while this one is open, so each can appear at once on submit, even when the reviewer
  // submits again before the server has answered the submit before (the fetch would then wait behind it).
  const upcoming = queue.upcomingIds.slice(0, PREFETCH).join(',');
  useEffect(() => {
    for (const id of upcoming ? upcoming.split(',') : []) void qc.prefetchQuery(itemOptions(Number(id)));
  }, [qc, itemOptions, upcoming]);

  /** The submissions still to be sent or answered, in order. */
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  /** Bumped when a submission fails: whatever was queued behind it is not sent. */
  const epoch = useRef(0);
  /** Assignments submitted on this screen and neither failed nor undone since: their drafts are not saved again. */
  const submittedIds = useRef(new Set<number>());
  const inFlight = useRef(new Set<number>());
  const [sendingIds, setSendingIds] = useState<ReadonlySet<number>>(() => new Set());
  /** A request id per assignment, kept until the server has acknowledged the submission. */
  const requestIds = useRef(new Map<number, string>());
  const [failure, setFailure] = useState<{ assignmentId: number; error: string } | null>(null);
  const undoPending = useRef(false);

  const submit = useCallback(
    (assignmentId: number, send: SendSubmission): boolean => {
      if (inFlight.current.has(assignmentId) || undoPending.current) return false;
      let requestId = requestIds.current.get(assignmentId);
      if (!requestId) {
        requestId = newRequestId();
        requestIds.current.set(assignmentId, requestId);
      }
      const key = queueKey(studyId);
      const before = qc.getQueryData<QueueDto>(key);
      const [ahead, ...later] = before?.upcomingIds ?? [];
      const advance =
        before !== undefined &&
        before.currentId === assignmentId &&
        ahead !== undefined &&
        qc.getQueryData(assignmentKey(ahead)) !== undefined;
      if (advance) {
        void qc.cancelQueries({ queryKey: key, exact: true });
        // A revision replaces a submission that was counted all along: the count stays.
        const revision = before.revising.some((r) => r.assignmentId === assignmentId);
        qc.setQueryData<QueueDto>(key, {
          ...before,
          currentId: ahead,
          nextId: later[0] ?? null,
          upcomingIds: later,
          submitted: before.submitted + (revision ? 0 : 1),
          undoableId: assignmentId,
          revising: before.revising.filter((r) => r.assignmentId !== assignmentId),
        });
      }
      const track = (sending: boolean) => {
        if (sending) inFlight.current.add(assignmentId);
        else inFlight.current.delete(assignmentId);
        setSendingIds(new Set(inFlight.current));
      };
      track(true);
      submittedIds.current.add(assignmentId);
      addOwnWork(assignmentId);
      setFailure((f) => (f?.assignmentId === assignmentId ? null : f));
      const mine = epoch.current;

      const run = async () => {
        if (epoch.current !== mine) {
          // An earlier submission failed and the reviewer is back on it; this one keeps its choices, unsent.
          submittedIds.current.delete(assignmentId);
          return;
        }
        let res: Awaited<ReturnType<SendSubmission>> | null = null;
        try {
          res = await send(requestId);
        } catch {
          res = null;
        }
        if (res?.ok) {
          requestIds.current.delete(assignmentId);
          qc.removeQueries({ queryKey: assignmentKey(assignmentId), exact: true });
          const answer = res.data.queue;
          if (inFlight.current.size === 1) {
            // The answer to the last submission describes the queue the reviewer is looking at.
            qc.setQueryData(key, answer);
          } else {
            // Later submissions are still on their way: keep what is on screen and its counts (the last answer sets
            // them), but take the items further ahead from this answer, so the screen can keep moving on at once.
            const later = inFlight.current;
            const pending = [answer.currentId, ...answer.upcomingIds].filter((id): id is number => id !== null && !later.has(id));
            qc.setQueryData<QueueDto>(key, (shown) =>
              shown && shown.currentId === pending[0] ? { ...shown, nextId: pending[1] ?? null, upcomingIds: pending.slice(1) } : shown,
            );
          }
          return;
        }
        epoch.current++;
        submittedIds.current.delete(assignmentId);
        if (advance && before) qc.setQueryData(key, before);
        setFailure({ assignmentId, error: res ? res.error : UNREACHABLE });
        // The item may have been submitted elsewhere, or the study closed: let the queue catch up.
        if (res) void qc.invalidateQueries({ queryKey: key, exact: true });
      };
      chain.current = chain.current
        .then(run)
        .finally(() => track(false))
        .catch((e: unknown) => console.error('Concord: a submission could not be handled', e));
      return true;
    },
    [qc, studyId, addOwnWork],
  );

  const undo = useMutation({
    mutationFn: async () => {
      const mine = epoch.current;
      await chain.current;
      // A submission made before the undo failed: the reviewer is back on it, and there is nothing of theirs to take back.
      if (epoch.current !== mine) return null;
      return undoLastSubmissionAction({ studyId });
    },
    onSuccess: (res) => {
      if (!res?.ok) return;
      submittedIds.current.delete(res.data.assignmentId);
      qc.removeQueries({ queryKey: assignmentKey(res.data.assignmentId), exact: true });
      qc.setQueryData(queueKey(studyId), res.data.queue);
    },
    onSettled: () => {
      undoPending.current = false;
    },
  });
  const { mutate: undoMutate } = undo;
  const onUndo = useCallback(() => {
    if (undoPending.current) return;
    undoPending.current = true;
    undoMutate();
  }, [undoMutate]);
  const undoError =
    undo.data && !undo.data.ok ? undo.data.error : undo.error ? 'The server could not be reached; nothing was undone.' : null;

  const isSubmitted = useCallback((assignmentId: number) => submittedIds.current.has(assignmentId), []);

  // Skip waits for the submissions before it (as undo does), then shows the queue the server answers with.
  const skipMutation = useMutation({
    mutationFn: async (a: { assignmentId: number; queuePosition: number }) => {
      const mine = epoch.current;
      await chain.current;
      if (epoch.current !== mine) return null;
      return skipItemAction({ ...a, activeMs: 0 });
    },
    onSuccess: (res) => {
      if (!res?.ok) return;
      qc.setQueryData(queueKey(studyId), res.data.queue);
      // When it comes back it is fetched anew, with the draft and active time its screen saved on leaving it.
      qc.removeQueries({ queryKey: assignmentKey(res.data.assignmentId), exact: true });
      // What was fetched ahead may place items by the old order (a rubric reply's "reply 2 of 3", the reply that
      // opens its dialogue): read it again. Not the skipped item itself, even when a short queue lists it among the
      // next ones: fetching it now would serve it afresh and start its active time again before its screen, on
      // leaving, has reported the time spent on it.
      const { currentId: next, upcomingIds } = res.data.queue;
      for (const id of [next, ...upcomingIds]) {
        if (id !== null && id !== res.data.assignmentId) void qc.invalidateQueries({ queryKey: assignmentKey(id), exact: true });
      }
    },
  });
  const { mutate: skipMutate, isPending: skipPending } = skipMutation;
  const skip = useCallback(
    (assignmentId: number, queuePosition: number) => {
      if (skipPending || undoPending.current || inFlight.current.has(assignmentId)) return;
      skipMutate({ assignmentId, queuePosition });
    },
    [skipMutate, skipPending],
  );
  const skipError =
    skipMutation.data && !skipMutation.data.ok
      ? skipMutation.data.error
      : skipMutation.error
        ? 'The server could not be reached; the item was not skipped.'
        : null;

  // Giving up a revision waits for the submissions before it too; the queue moves on to what comes after it.
  const abandonMutation = useMutation({
    mutationFn: async (assignmentId: number) => {
      const mine = epoch.current;
      await chain.current;
      if (epoch.current !== mine) return null;
      return abandonRevisionAction({ assignmentId });
    },
    onSuccess: (res) => {
      if (!res?.ok) return;
      qc.setQueryData(queueKey(studyId), res.data.queue);
      // Its draft is gone: if it is opened again, it is fetched anew.
      qc.removeQueries({ queryKey: assignmentKey(res.data.assignmentId), exact: true });
    },
  });
  const { mutate: abandonMutate, isPending: abandonPending } = abandonMutation;
  const abandonRevision = useCallback(
    (assignmentId: number) => {
      if (abandonPending || undoPending.current || inFlight.current.has(assignmentId)) return;
      abandonMutate(assignmentId);
    },
    [abandonMutate, abandonPending],
  );
  const abandonError =
    abandonMutation.data && !abandonMutation.data.ok
      ? abandonMutation.data.error
      : abandonMutation.error
        ? 'The server could not be reached; the revision is still under way.'
        : null;

  return {
    queue,
    currentId,
    /** The submission the item on screen revises, when it is a revision (from the reviewer's history). */
    revising: queue.revising.find((r) => r.assignmentId === currentId) ?? null,
    /** Gives up the revision on screen: the submission stays as it was. */
    abandonRevision,
    abandonPending,
    abandonError,
    /** The item on screen, once its data is there. */
    shown: current.data && current.data.assignmentId === currentId ? current.data : null,
    current,
    submit,
    /** True while a submission of this assignment waits for the server. */
    isSending: (assignmentId: number) => sendingIds.has(assignmentId),
    isSubmitted,
    /** The error of the last failed submission, for the assignment it belongs to. */
    submitError: (assignmentId: number) => (failure?.assignmentId === assignmentId ? failure.error : null),
    /** A failed submission of an item that is no longer on screen (the queue moved on meanwhile). */
    otherError: failure && failure.assignmentId !== currentId ? failure.error : null,
    onUndo,
    undoPending: undo.isPending,
    undoError,
    /** Puts the item at the end of the queue (see skipAssignment). */
    skip,
    skipPending,
    skipError,
  };
}

const OWN_WORK_KEY = (studyId: number) => `concord:submitted-here:${studyId}`;

/**
 * The assignments the reviewer submitted on a review screen of this study in this browser tab, kept in
 * sessionStorage so a reload keeps them (a new tab or sign-in starts empty). Read after mounting: the server renders
 * without them, and the first client render must match it.
 */
function useOwnSubmissions(studyId: number) {
  const [ids, setIds] = useState<ReadonlySet<number>>(() => new Set());
  useEffect(() => {
    try {
      const stored = JSON.parse(sessionStorage.getItem(OWN_WORK_KEY(studyId)) ?? '[]') as unknown;
      if (Array.isArray(stored)) setIds(new Set(stored.filter((x): x is number => Number.isInteger(x))));
    } catch {
      // No storage (a locked-down browser) or something unreadable in it: this screen's own submissions still count.
    }
  }, [studyId]);
  const add = useCallback(
    (id: number) =>
      setIds((prev) => {
        if (prev.has(id)) return prev;
        const next = new Set(prev).add(id);
        try {
          sessionStorage.setItem(OWN_WORK_KEY(studyId), JSON.stringify([...next]));
        } catch {
          // Kept in memory only.
        }
        return next;
      }),
    [studyId],
  );
  const has = useCallback((id: number) => ids.has(id), [ids]);
  return { has, add };
}
