'use client';

import { useCallback, useRef, useState } from 'react';
import { useFollowFocus } from '@/components/review/follow-focus';
import { nextWithout } from '@/components/review/rows';
import { UndoLastButton } from '@/components/review/undo-last-button';
import { useReviewDraft } from '@/components/review/use-review-draft';
import { useToggleSet } from '@/components/review/use-toggle-set';
import { DimensionRow, labelForKey } from '@/components/kinds/rubric/dimension-row';
import { RubricActionBar } from '@/components/kinds/rubric/action-bar';
import { RubricReply } from '@/components/kinds/rubric/dialogue';
import { Kbd } from '@/components/ui/kbd';
import type { RubricAssignmentDto, RubricDimensionDto } from '@/lib/server/review/dto';
import { submitRubricAction } from '@/app/(app)/studies/[id]/review/actions';
import type { ReviewPanelProps } from '@/components/review/use-review-queue';

type Draft = { labels: Readonly<Record<string, string>>; focus: number; note: string };

function initialDraft(a: RubricAssignmentDto): Draft {
  // Only labels this item's dimensions have: the server refuses anything else on submit.
  const source = a.draft?.labels ?? a.submitted?.labels ?? {};
  const labels: Record<string, string> = {};
  for (const d of a.dimensions) if (source[d.id] && d.labels.includes(source[d.id])) labels[d.id] = source[d.id];
  const last = Math.max(0, a.dimensions.length - 1);
  const focus = a.draft?.focus !== undefined ? Math.min(Math.max(a.draft.focus, 0), last) : (nextWithout(a.dimensions, labels, -1) ?? 0);
  return { labels, focus, note: a.draft?.note ?? a.submitted?.note ?? '' };
}

// Focus and note are saved too, so a reload comes back to the same place.
const asSaved = (d: Draft) => ({ labels: d.labels, focus: d.focus, ...(d.note ? { note: d.note } : {}) });

const missingHint = (missing: readonly RubricDimensionDto[]) =>
  `Label every dimension first. Missing: ${missing.map((x) => x.name).join(', ')}.`;

export function RubricPanel(props: ReviewPanelProps<RubricAssignmentDto>) {
  const { assignment, queue, onUndo, undoPending, sending, submitError } = props;
  const { assignmentId, studyId, dimensions } = assignment;
  const [expanded, toggleDetails] = useToggleSet();
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const listRef = useRef<HTMLOListElement>(null);

  const missingOf = useCallback((d: Draft) => dimensions.filter((x) => !d.labels[x.id]), [dimensions]);

  const { draft, change, hint, setHint, showMissing, trySubmit, onFocusRow, saveStatus } = useReviewDraft({
    ...props,
    initial: () => initialDraft(assignment),
    toSaved: asSaved,
    rows: dimensions,
    missingOf,
    missingHint,
    send: (d, ms, requestId) => {
      const labels: Record<string, string> = {};
      for (const x of dimensions) labels[x.id] = d.labels[x.id];
      const note = d.note.trim();
      return submitRubricAction({ studyId, assignmentId, requestId, activeMs: ms, labels, ...(note ? { note } : {}) });
    },
    onKey: (e, d) => {
      switch (e.key) {
        case 'i': {
          e.preventDefault();
          const id = dimensions[d.focus]?.id;
          if (id) toggleDetails(id);
          return;
        }
        case 'n':
          e.preventDefault();
          setNoteOpen(true);
          window.setTimeout(() => noteRef.current?.focus(), 0);
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
  const [noteOpen, setNoteOpen] = useState(() => draft.note !== '');

  const onChoose = useCallback(
    (index: number, label: string, advance = false) => {
      const id = dimensions[index]?.id;
      if (!id) return;
      setHint(null);
      change((d) => {
        const labels = { ...d.labels, [id]: label };
        return { ...d, labels, focus: advance ? (nextWithout(dimensions, labels, index) ?? index) : index };
      });
    },
    [dimensions, change, setHint],
  );

  useFollowFocus(listRef, draft.focus, assignmentId);

  const missingCount = missingOf(draft).length;
  const focused = dimensions[draft.focus];

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
        before={<UndoLastButton available={queue.undoableId !== null} onUndo={onUndo} disabled={undoPending || sending} />}
      />
    </div>
  );
}
