'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useFollowFocus } from '@/components/pairwise/keyboard';
import { useActiveTime } from '@/components/review/use-active-time';
import { useReviewKeys } from '@/components/review/use-review-keys';
import { DimensionRow, labelForKey } from '@/components/rubric/dimension-row';
import { RubricActionBar } from '@/components/rubric/rubric-action-bar';
import { RubricReply } from '@/components/rubric/rubric-dialogue';
import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import { rubricAssignmentOptions } from '@/lib/query/review';
import type { RubricAssignmentDto, RubricDimensionDto } from '@/lib/server/review/dto';
import { saveRubricDraftAction, submitRubricAction } from '../actions';
import type { ReviewPanelProps } from './use-review-queue';

type Draft = { labels: Readonly<Record<string, string>>; focus: number; note: string };

/** The first dimension after `from` (wrapping) without a label, or null when all have one. */
function nextOpen(dimensions: readonly RubricDimensionDto[], labels: Readonly<Record<string, string>>, from: number): number | null {
  for (let step = 1; step <= dimensions.length; step++) {
    const i = (from + step + dimensions.length) % dimensions.length;
    if (!labels[dimensions[i].id]) return i;
  }
  return null;
}

function initialDraft(a: RubricAssignmentDto): Draft {
  // Only labels this item's dimensions have: the server refuses anything else on submit.
  const source = a.draft?.labels ?? a.submitted?.labels ?? {};
  const labels: Record<string, string> = {};
  for (const d of a.dimensions) if (source[d.id] && d.labels.includes(source[d.id])) labels[d.id] = source[d.id];
  const last = Math.max(0, a.dimensions.length - 1);
  const focus = a.draft?.focus !== undefined ? Math.min(Math.max(a.draft.focus, 0), last) : (nextOpen(a.dimensions, labels, -1) ?? 0);
  return { labels, focus, note: a.draft?.note ?? a.submitted?.note ?? '' };
}

const asSaved = (d: Draft) => ({ labels: d.labels, focus: d.focus, ...(d.note ? { note: d.note } : {}) });

export function RubricPanel({
  assignment,
  queue,
  onUndo,
  undoPending,
  onSubmit,
  sending,
  isSubmitted,
  submitError,
}: ReviewPanelProps<RubricAssignmentDto>) {
  const qc = useQueryClient();
  const { assignmentId, studyId, dimensions } = assignment;
  const [draft, setDraft] = useState<Draft>(() => initialDraft(assignment));
  // Also in a ref, written with the state: key handlers and timers read the newest labels even before React renders.
  const draftRef = useRef(draft);
  const initial = useRef(draft);
  const saved = useRef(draft);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [hint, setHint] = useState<string | null>(null);
  const [showMissing, setShowMissing] = useState(false);
  const [noteOpen, setNoteOpen] = useState(() => draft.note !== '');
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const activeMs = useActiveTime(assignmentId, assignment.activeMs);
  const lastSentMs = useRef(assignment.activeMs);
  const listRef = useRef<HTMLOListElement>(null);

  const change = useCallback((fn: (d: Draft) => Draft) => {
    const next = fn(draftRef.current);
    if (next === draftRef.current) return;
    draftRef.current = next;
    setDraft(next);
  }, []);

  const save = useMutation({
    mutationFn: (d: Draft) => {
      const ms = Math.round(activeMs.current);
      lastSentMs.current = ms;
      return saveRubricDraftAction({ assignmentId, draft: asSaved(d), activeMs: ms });
    },
    onSuccess: (res, d) => {
      if (res.ok) saved.current = d;
    },
  });
  const { mutate: saveDraft } = save;

  // Drafts save themselves shortly after each change (focus and note included, so a reload comes back to the same place).
  useEffect(() => {
    if (draft === saved.current || isSubmitted(assignmentId)) return;
    const timer = window.setTimeout(() => {
      if (!isSubmitted(assignmentId)) saveDraft(draft);
    }, 400);
    return () => window.clearTimeout(timer);
  }, [draft, saveDraft, isSubmitted, assignmentId]);

  useEffect(() => {
    if (submitError && draftRef.current !== saved.current) saveDraft(draftRef.current);
  }, [submitError, saveDraft]);

  useEffect(() => {
    const flush = () => {
      if (document.visibilityState !== 'hidden' || isSubmitted(assignmentId)) return;
      if (draftRef.current !== saved.current || activeMs.current - lastSentMs.current > 1000) saveDraft(draftRef.current);
    };
    document.addEventListener('visibilitychange', flush);
    return () => document.removeEventListener('visibilitychange', flush);
  }, [saveDraft, activeMs, isSubmitted, assignmentId]);

  // Leaving the item: keep what was chosen in the cached copy and, unless submitted, on the server.
  useEffect(
    () => () => {
      const d = draftRef.current;
      const ms = Math.round(activeMs.current);
      if (d !== initial.current) {
        qc.setQueryData(rubricAssignmentOptions(assignmentId).queryKey, (old) => (old ? { ...old, draft: asSaved(d), activeMs: ms } : old));
      }
      if (d !== saved.current && !isSubmitted(assignmentId)) {
        void saveRubricDraftAction({ assignmentId, draft: asSaved(d), activeMs: ms }).catch(() => undefined);
      }
    },
    [qc, assignmentId, activeMs, isSubmitted],
  );

  const missingOf = useCallback((d: Draft) => dimensions.filter((x) => !d.labels[x.id]), [dimensions]);

  const trySubmit = useCallback(() => {
    if (isSubmitted(assignmentId) || undoPending) return;
    const d = draftRef.current;
    const missing = missingOf(d);
    if (missing.length > 0) {
      setShowMissing(true);
      setHint(`Label every dimension first. Missing: ${missing.map((x) => x.name).join(', ')}.`);
      const first = dimensions.indexOf(missing[0]);
      change((x) => (x.focus === first ? x : { ...x, focus: first }));
      return;
    }
    setHint(null);
    const labels: Record<string, string> = {};
    for (const x of dimensions) labels[x.id] = d.labels[x.id];
    const note = d.note.trim();
    const ms = Math.round(activeMs.current);
    onSubmit(assignmentId, (requestId) =>
      submitRubricAction({ studyId, assignmentId, requestId, activeMs: ms, labels, ...(note ? { note } : {}) }),
    );
  }, [dimensions, missingOf, change, onSubmit, undoPending, isSubmitted, assignmentId, studyId, activeMs]);

  const onChoose = useCallback(
    (index: number, label: string, advance = false) => {
      const id = dimensions[index]?.id;
      if (!id) return;
      setHint(null);
      change((d) => {
        const labels = { ...d.labels, [id]: label };
        return { ...d, labels, focus: advance ? (nextOpen(dimensions, labels, index) ?? index) : index };
      });
    },
    [dimensions, change],
  );
  const onFocusRow = useCallback((index: number) => change((d) => (d.focus === index ? d : { ...d, focus: index })), [change]);

  useReviewKeys({
    onSubmit: trySubmit,
    onKey: (e) => {
      const d = draftRef.current;
      const last = dimensions.length - 1;
      switch (e.key) {
        case 'j':
        case 'ArrowDown':
          e.preventDefault();
          onFocusRow(Math.min(d.focus + 1, last));
          return;
        case 'k':
        case 'ArrowUp':
          e.preventDefault();
          onFocusRow(Math.max(d.focus - 1, 0));
          return;
        case 'i': {
          e.preventDefault();
          const id = dimensions[d.focus]?.id;
          if (id)
            setExpanded((s) => {
              const next = new Set(s);
              if (!next.delete(id)) next.add(id);
              return next;
            });
          return;
        }
        case 'n':
          e.preventDefault();
          setNoteOpen(true);
          window.setTimeout(() => noteRef.current?.focus(), 0);
          return;
        case 'u':
          if (queue.undoableId === null || sending) return;
          e.preventDefault();
          onUndo();
          return;
        default: {
          const label = labelForKey(e.key, dimensions[d.focus]?.labels ?? []);
          if (label === null) return;
          e.preventDefault();
          onChoose(d.focus, label, true);
        }
      }
    },
  });

  useFollowFocus(listRef, draft.focus, assignmentId);

  const missingCount = missingOf(draft).length;
  const focused = dimensions[draft.focus];
  const saveStatus = save.isPending
    ? 'Saving draft…'
    : save.data && !save.data.ok
      ? `Draft not saved: ${save.data.error}`
      : save.error
        ? 'Draft not saved: the server could not be reached.'
        : save.data?.ok
          ? 'Draft saved.'
          : '';

  return (
    <div className="min-w-0 space-y-3">
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-500">
        <span className="font-medium text-slate-700" data-testid="item-label">
          Item {assignment.position}
        </span>
        <span aria-hidden="true">·</span>
        <span>
          {dimensions.length} dimension{dimensions.length === 1 ? '' : 's'}
        </span>
        {assignment.reply === null ? (
          <>
            <span aria-hidden="true">·</span>
            <span className="font-medium text-emerald-800">Label the whole dialogue</span>
          </>
        ) : null}
      </p>
      {assignment.reply !== null ? <RubricReply text={assignment.reply} group={assignment.group} /> : null}
      <section aria-labelledby="dimensions-heading">
        <div className="mb-1.5 flex items-baseline justify-between gap-2">
          <h2 id="dimensions-heading" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
            {assignment.reply !== null ? 'Label the reply' : 'Label the dialogue'}
          </h2>
          <span className="text-xs text-slate-500 tabular-nums">
            {dimensions.length - missingCount} of {dimensions.length} labelled
          </span>
        </div>
        <ol ref={listRef} className="space-y-2" data-testid="dimensions">
          {dimensions.map((dimension, index) => (
            <DimensionRow
              key={dimension.id}
              dimension={dimension}
              index={index}
              value={draft.labels[dimension.id] ?? null}
              focused={draft.focus === index}
              expanded={expanded.has(dimension.id)}
              problem={showMissing && !draft.labels[dimension.id] ? 'Choose a label.' : null}
              onChoose={onChoose}
              onFocusRow={onFocusRow}
            />
          ))}
        </ol>
      </section>
      {noteOpen ? (
        <div>
          <label htmlFor={`note-${assignmentId}`} className="mb-1 block text-xs font-medium text-slate-600">
            Note (optional)
          </label>
          <textarea
            id={`note-${assignmentId}`}
            ref={noteRef}
            rows={2}
            maxLength={5000}
            value={draft.note}
            onChange={(e) => {
              const note = e.target.value;
              change((d) => ({ ...d, note }));
            }}
            className="block w-full rounded-md border border-slate-300 px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-accent-500"
          />
        </div>
      ) : (
        <button type="button" onClick={() => setNoteOpen(true)} className="text-xs text-slate-600 underline-offset-2 hover:underline">
          Add a note <Kbd aria-hidden="true">n</Kbd>
        </button>
      )}

      <RubricActionBar
        action="Submit"
        focused={focused ? { name: focused.name, value: draft.labels[focused.id] ?? null } : null}
        labelCount={Math.max(...dimensions.map((x) => x.labels.length))}
        onAction={trySubmit}
        pending={sending}
        incomplete={missingCount > 0}
        error={submitError}
        hint={hint}
        status={`${missingCount === 0 ? 'Ready to submit.' : `${missingCount} dimension${missingCount === 1 ? '' : 's'} still open.`} ${saveStatus}`}
        before={
          queue.undoableId !== null && (
            <Button variant="secondary" onClick={onUndo} disabled={undoPending || sending}>
              Undo last <Kbd aria-hidden="true">u</Kbd>
            </Button>
          )
        }
      />
    </div>
  );
}
