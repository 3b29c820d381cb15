'use client';

import { useMemo, useRef } from 'react';
import { useFollowFocus } from '@/components/review/follow-focus';
import { useAdjudication } from '@/components/review/use-adjudication';
import { useToggleSet } from '@/components/review/use-toggle-set';
import { DimensionRow, labelForKey } from '@/components/kinds/rubric/dimension-row';
import { RubricActionBar } from '@/components/kinds/rubric/action-bar';
import { RubricDialogue, RubricReply } from '@/components/kinds/rubric/dialogue';
import type { RubricAdjudicationDimensionDto, RubricAdjudicationItemDto } from '@/lib/server/review/dto';
import { AdjudicationItemLabel, settleStatus } from '@/components/review/adjudication-screen';
import { submitRubricAdjudicationAction } from '@/app/(app)/studies/[id]/adjudicate/actions';

/** Which reviewers gave each label of a dimension: "R1", "R1 R2", … as captions under the labels. */
function reviewerNotes(d: RubricAdjudicationDimensionDto): Record<string, string> {
  const notes: Record<string, string> = {};
  d.reviewers.forEach((l, i) => {
    if (l !== null) notes[l] = notes[l] ? `${notes[l]} R${i + 1}` : `R${i + 1}`;
  });
  return notes;
}

/** A disputed rubric item: the dialogue and reply, the dimensions the reviewers leave open first, then the settled ones. */
export function RubricAdjudicationPanel({ item }: { item: RubricAdjudicationItemDto }) {
  const { itemId, studyId } = item;
  const disputed = useMemo(() => item.dimensions.filter((d) => !d.agreed && d.reviewers.some((l) => l !== null)), [item.dimensions]);
  const settled = useMemo(() => item.dimensions.filter((d) => d.agreed), [item.dimensions]);
  const listRef = useRef<HTMLOListElement>(null);
  const [expanded, toggleDetails] = useToggleSet();

  const { state, errors, hint, trySubmit, onChoose, onRationale, onFocusRow, open, pending, generalError } = useAdjudication({
    studyId,
    itemId,
    disputed,
    valueForKey: (e, d) => labelForKey(e.key, d.labels),
    toggleDetails,
    focusRationale: (id) => listRef.current?.querySelector<HTMLTextAreaElement>(`textarea[data-rationale="${CSS.escape(id)}"]`)?.focus(),
    send: ({ answers: labels, rationales }, requestId) =>
      submitRubricAdjudicationAction({ studyId, itemId, requestId, labels, rationales }),
    onLeaveField: (field, e) => {
      e.preventDefault();
      field.blur();
    },
  });
  useFollowFocus(listRef, state.focus, itemId);

  const focused = disputed[state.focus];

  return (
    <div>
      <AdjudicationItemLabel position={item.position} disputed={disputed.length} reviewers={item.reviewerCount} />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
        <div className="min-w-0 lg:sticky lg:top-4 lg:self-start">
          <RubricDialogue problem={item.problem} history={item.history} underReview={item.reply === null} />
        </div>
        <div className="min-w-0 space-y-3">
          {item.reply !== null ? <RubricReply text={item.reply} group={null} /> : null}
          <section aria-labelledby="disagreements-heading">
            <div className="mb-1.5 flex items-baseline justify-between gap-2">
              <h2 id="disagreements-heading" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
                Disagreements
              </h2>
              <span className="text-xs text-slate-500 tabular-nums">
                {disputed.length - open} of {disputed.length} settled
              </span>
            </div>
            <ol ref={listRef} className="space-y-2">
              {disputed.map((d, index) => (
                <DimensionRow
                  key={d.id}
                  dimension={d}
                  index={index}
                  value={state.answers[d.id] ?? null}
                  focused={state.focus === index}
                  expanded={expanded.has(d.id)}
                  problem={errors[d.id] ?? null}
                  notes={reviewerNotes(d)}
                  onChoose={onChoose}
                  onFocusRow={onFocusRow}
                  after={
                    <div className="mt-1.5 space-y-1">
                      <p className="text-xs text-slate-600" data-testid={`reviewers-${d.id}`}>
                        {d.reviewers.map((l, i) => `Reviewer ${i + 1}: ${l ?? '—'}`).join(' · ')}
                      </p>
                      <textarea
                        data-rationale={d.id}
                        aria-label={`Rationale for ${d.name}`}
                        placeholder="Rationale (required when you overrule every reviewer; r to write, Esc to leave)"
                        rows={1}
                        maxLength={5000}
                        value={state.rationales[d.id] ?? ''}
                        onChange={(e) => onRationale(d.id, e.target.value)}
                        className="block w-full rounded-md border border-slate-300 px-2 py-1 text-xs"
                      />
                    </div>
                  }
                />
              ))}
            </ol>
          </section>
          {settled.length > 0 && (
            <details className="rounded-lg border border-slate-200 bg-white text-sm" data-testid="agreed-dimensions">
              <summary className="cursor-pointer px-3 py-2 font-medium text-slate-700">Settled by the reviewers ({settled.length})</summary>
              <ul className="divide-y divide-slate-100 px-3 pb-2">
                {settled.map((d) => (
                  <li key={d.id} data-testid={`agreed-${d.id}`} className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5">
                    <span>{d.name}</span>
                    <span className="text-slate-600">
                      {d.reviewers.map((l, i) => `Reviewer ${i + 1}: ${l ?? '—'}`).join(' · ')} →{' '}
                      <span className="font-semibold text-slate-800">{d.settled}</span>
                    </span>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      </div>
      <RubricActionBar
        action="Settle"
        extraKeys={[
          { key: 'i', label: 'details' },
          { key: 'r', label: 'rationale' },
          { key: 'Esc', label: 'leave it' },
        ]}
        focused={focused ? { name: focused.name, value: state.answers[focused.id] ?? null } : null}
        labelCount={Math.max(2, ...disputed.map((d) => d.labels.length))}
        onAction={trySubmit}
        pending={pending}
        incomplete={open > 0}
        error={generalError}
        hint={hint}
        status={settleStatus(open)}
      />
    </div>
  );
}
