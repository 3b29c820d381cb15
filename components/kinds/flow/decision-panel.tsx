'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FlowContext, FlowSteps } from '@/components/flow/flow-view';
import { useActiveTime } from '@/components/review/use-active-time';
import { useReviewKeys } from '@/components/review/use-review-keys';
import { assignmentKey, sendDraft } from '@/lib/query/review';
import type { FlowAssignmentDto } from '@/lib/server/review/dto';
import { DISCARD_REASONS } from '@/lib/validation/labels';
import { submitFlowReviewAction } from '@/app/(app)/studies/[id]/review/actions';
import type { ReviewPanelProps } from '@/components/review/use-review-queue';

type Decision = 'verify' | 'truncate' | 'discard';
type Draft = { decision: Decision | null; afterStep: number | null; reasons: string[]; note: string; focus: number };

const REASON_LABELS: Record<(typeof DISCARD_REASONS)[number], string> = {
  hallucinated_material: 'Hallucinated material',
  illogical_sequence: 'Illogical sequence',
  incorrect_math: 'Incorrect math',
  off_topic: 'Off topic',
  other: 'Other (explain in the note)',
};

function initialDraft(a: FlowAssignmentDto): Draft {
  const d = a.draft ?? {};
  return {
    decision: d.decision ?? null,
    afterStep: d.afterStep ?? null,
    reasons: d.reasons ?? [],
    note: d.note ?? '',
    focus: Math.min(d.focus ?? 0, a.flow.steps.length - 1),
  };
}

/** Why the draft cannot be submitted yet, or null when it can. */
function missing(d: Draft, stepCount: number): string | null {
  if (!d.decision) return 'Choose verify (v), truncate (t) or discard (d).';
  if (d.decision === 'truncate' && !(d.afterStep && d.afterStep >= 1 && d.afterStep < stepCount))
    return `Truncate after a step from 1 to ${stepCount - 1}.`;
  if (d.decision === 'discard' && d.reasons.length === 0) return 'Tick at least one reason to discard.';
  if (d.decision === 'discard' && d.reasons.includes('other') && !d.note.trim()) return 'Explain "other" in the note.';
  return null;
}

function toDecision(d: Draft) {
  const note = d.note.trim() || undefined;
  if (d.decision === 'truncate') return { decision: 'truncate', afterStep: d.afterStep, note };
  if (d.decision === 'discard') return { decision: 'discard', reasons: d.reasons, note };
  return { decision: 'verify', note };
}

type PanelProps = ReviewPanelProps<FlowAssignmentDto>;

export function FlowDecisionPanel({ assignment, queue, onUndo, undoPending, onSubmit, sending, isSubmitted, submitError }: PanelProps) {
  const qc = useQueryClient();
  const steps = assignment.flow.steps.length;
  const [draft, setDraft] = useState<Draft>(() => initialDraft(assignment));
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const [hint, setHint] = useState<string | null>(null);
  const activeMs = useActiveTime(assignment.assignmentId, assignment.activeMs);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const dirty = useRef(false);

  const update = useCallback((change: Partial<Draft>) => {
    dirty.current = true;
    setHint(null);
    setDraft((d) => ({ ...d, ...change }));
  }, []);

  /** The active time last sent with a draft. */
  const lastSentMs = useRef(assignment.activeMs);
  const save = useMutation({
    mutationFn: (d: Draft) => {
      lastSentMs.current = Math.round(activeMs.current);
      return sendDraft({ assignmentId: assignment.assignmentId, draft: { ...d, note: d.note }, activeMs: lastSentMs.current });
    },
  });
  const saveRef = useRef(save.mutate);
  saveRef.current = save.mutate;

  // Drafts save themselves shortly after each change, and when the tab is hidden.
  useEffect(() => {
    if (!dirty.current) return;
    const timer = window.setTimeout(() => {
      if (!isSubmitted(assignment.assignmentId)) saveRef.current(draft);
    }, 400);
    return () => window.clearTimeout(timer);
  }, [draft, isSubmitted, assignment.assignmentId]);
  useEffect(() => {
    const flush = () => {
      if (document.visibilityState === 'hidden' && dirty.current && !isSubmitted(assignment.assignmentId))
        saveRef.current(draftRef.current);
    };
    document.addEventListener('visibilitychange', flush);
    return () => {
      document.removeEventListener('visibilitychange', flush);
      // Leaving this flow (undo, skip, navigation, or a submit still on its way): keep what was chosen in the cache,
      // so a failed submit brings it back intact, and on the server unless it is being submitted. A flow left
      // unsubmitted (skipped, say) also reports the time spent reading it.
      // activeMs is the reading clock, not a DOM ref: its value when the flow is left is the one to report.
      // eslint-disable-next-line react-hooks/exhaustive-deps
      const unsentTime = activeMs.current - lastSentMs.current > 1000;
      if (!dirty.current && unsentTime && !isSubmitted(assignment.assignmentId)) saveRef.current(draftRef.current);
      if (dirty.current) {
        if (!isSubmitted(assignment.assignmentId)) saveRef.current(draftRef.current);
        qc.setQueryData(assignmentKey(assignment.assignmentId), (old: FlowAssignmentDto | undefined) =>
          old ? { ...old, draft: { ...draftRef.current } } : old,
        );
      }
    };
  }, [qc, assignment.assignmentId, isSubmitted, activeMs]);

  // A submission that failed is no longer sent: choices changed while it was on its way are saved now.
  useEffect(() => {
    if (submitError && dirty.current) saveRef.current(draftRef.current);
  }, [submitError]);

  const { studyId, assignmentId } = assignment;
  const trySubmit = useCallback(() => {
    const why = missing(draftRef.current, steps);
    if (why) return setHint(why);
    if (undoPending) return;
    // What is sent is fixed now: the flow may be off screen by the time the submission goes out.
    const decision = toDecision(draftRef.current);
    const ms = Math.round(activeMs.current);
    onSubmit(assignmentId, (requestId) => submitFlowReviewAction({ studyId, assignmentId, requestId, activeMs: ms, decision }));
  }, [steps, undoPending, onSubmit, studyId, assignmentId, activeMs]);

  useEffect(() => {
    document.getElementById(`step-${draft.focus + 1}`)?.scrollIntoView({ block: 'nearest' });
  }, [draft.focus]);

  useReviewKeys({
    onSubmit: trySubmit,
    onKey: (e) => {
      const d = draftRef.current;
      switch (e.key) {
        case 'j':
        case 'ArrowDown':
          e.preventDefault();
          update({ focus: Math.min(d.focus + 1, steps - 1) });
          break;
        case 'k':
        case 'ArrowUp':
          e.preventDefault();
          update({ focus: Math.max(d.focus - 1, 0) });
          break;
        case 'v':
          update({ decision: 'verify' });
          break;
        case 't':
          if (d.focus + 1 >= steps) setHint('Focus the last step to keep (j/k), then press t: the steps after it are cut.');
          else update({ decision: 'truncate', afterStep: d.focus + 1 });
          break;
        case 'd':
          update({ decision: 'discard' });
          break;
        case 'n':
          e.preventDefault();
          noteRef.current?.focus();
          break;
        case 'u':
          if (queue.undoableId !== null) onUndo();
          break;
        default:
          if (d.decision === 'discard' && /^[1-5]$/.test(e.key)) {
            const reason = DISCARD_REASONS[Number(e.key) - 1];
            update({ reasons: d.reasons.includes(reason) ? d.reasons.filter((r) => r !== reason) : [...d.reasons, reason] });
          }
      }
    },
  });

  const cutAfter = draft.decision === 'truncate' ? draft.afterStep : null;
  const blocker = missing(draft, steps);
  const choice = (value: Decision, label: string, key: string) => (
    <button
      type="button"
      aria-pressed={draft.decision === value}
      onClick={() =>
        value === 'truncate'
          ? draft.focus + 1 < steps
            ? update({ decision: 'truncate', afterStep: draft.focus + 1 })
            : setHint('Click the last step to keep, then Truncate.')
          : update({ decision: value })
      }
      className={[
        'rounded-md border px-3 py-1.5 text-sm font-medium',
        draft.decision === value
          ? 'border-accent-600 bg-accent-600 text-white'
          : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
      ].join(' ')}
    >
      {label} <kbd className="ml-1 text-xs opacity-70 pointer-coarse:hidden">{key}</kbd>
    </button>
  );

  return (
    <div data-testid="flow-review" data-assignment={assignment.assignmentId}>
      <p className="mb-3 text-sm text-slate-500">
        Flow{' '}
        <span className="font-mono text-slate-700" data-testid="flow-id">
          {assignment.flow.id}
        </span>{' '}
        · {steps} steps
        {assignment.warnings.length > 0 && (
          <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-amber-900">
            {assignment.warnings.length} warning{assignment.warnings.length === 1 ? '' : 's'}
          </span>
        )}
      </p>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        {/* On a phone the problem and materials are a box that scrolls, a third of the screen: step 1 is in view on arrival. */}
        <div
          tabIndex={0}
          data-scroll-region
          aria-label="Problem and materials"
          className="max-lg:max-h-[35dvh] max-lg:overflow-y-auto max-lg:rounded-lg max-lg:pr-1"
        >
          <FlowContext flow={assignment.flow} />
        </div>
        <FlowSteps
          flow={assignment.flow}
          warnings={assignment.warnings}
          focus={draft.focus}
          cutAfter={cutAfter}
          onFocus={(i) => update({ focus: i })}
        />
      </div>

      <section
        aria-label="Decision"
        className="fixed inset-x-0 bottom-0 z-10 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-lg backdrop-blur pointer-coarse:px-2 pointer-coarse:py-1.5"
      >
        <div className="mx-auto flex max-w-7xl flex-wrap items-start gap-3">
          <div className="flex gap-2">
            {choice('verify', 'Verify', 'v')}
            {choice('truncate', draft.decision === 'truncate' ? `Truncate after step ${draft.afterStep}` : 'Truncate', 't')}
            {choice('discard', 'Discard', 'd')}
          </div>
          {draft.decision === 'discard' && (
            <fieldset className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
              <legend className="sr-only">Reasons to discard</legend>
              {DISCARD_REASONS.map((r, i) => (
                <label key={r} className="flex items-center gap-1">
                  <input
                    type="checkbox"
                    checked={draft.reasons.includes(r)}
                    onChange={(e) => update({ reasons: e.target.checked ? [...draft.reasons, r] : draft.reasons.filter((x) => x !== r) })}
                  />
                  {REASON_LABELS[r]} <kbd className="text-xs text-slate-500 pointer-coarse:hidden">{i + 1}</kbd>
                </label>
              ))}
            </fieldset>
          )}
          <label className="min-w-56 flex-1 text-sm">
            <span className="sr-only">Note</span>
            <textarea
              ref={noteRef}
              rows={1}
              value={draft.note}
              maxLength={5000}
              onChange={(e) => update({ note: e.target.value })}
              placeholder={draft.reasons.includes('other') ? 'Note (required for "other")' : 'Note (optional, n)'}
              className="w-full rounded-md border border-slate-300 px-2 py-1.5"
            />
          </label>
          <div className="flex items-center gap-2">
            <button
              type="button"
              onClick={trySubmit}
              disabled={sending}
              aria-disabled={!!blocker}
              className="rounded-md bg-emerald-700 px-4 py-1.5 text-sm font-semibold text-white hover:bg-emerald-800 disabled:opacity-60 aria-disabled:opacity-60"
            >
              {sending ? 'Submitting…' : 'Submit'} <kbd className="ml-1 text-xs opacity-80 pointer-coarse:hidden">Enter</kbd>
            </button>
            {queue.undoableId !== null && (
              <button type="button" onClick={onUndo} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm">
                Undo last <kbd className="text-xs text-slate-500 pointer-coarse:hidden">u</kbd>
              </button>
            )}
          </div>
        </div>
        <div className="mx-auto mt-1 max-w-7xl text-xs" aria-live="polite">
          {submitError ? (
            <span role="alert" className="text-red-700">
              {submitError}
            </span>
          ) : hint ? (
            <span className="text-amber-800">{hint}</span>
          ) : (
            <span className="text-slate-500">
              {blocker ?? 'Ready to submit.'} {save.isPending ? ' Saving draft…' : save.data?.ok ? ' Draft saved.' : ''}
            </span>
          )}
        </div>
      </section>
    </div>
  );
}
