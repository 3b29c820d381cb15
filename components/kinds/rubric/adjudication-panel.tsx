'use client';

import { useCallback, useMemo, useRef } from 'react';
import { useFollowFocus } from '@/components/review/follow-focus';
import { nextWithout, rulingsOf } from '@/components/review/rows';
import { useAdjudication } from '@/components/review/use-adjudication';
import { useToggleSet } from '@/components/review/use-toggle-set';
import { DimensionRow, labelForKey } from '@/components/kinds/rubric/dimension-row';
import { RubricActionBar } from '@/components/kinds/rubric/action-bar';
import { RubricDialogue, RubricReply } from '@/components/kinds/rubric/dialogue';
import type { RubricAdjudicationDimensionDto, RubricAdjudicationItemDto } from '@/lib/server/review/dto';
import { AdjudicationItemLabel, settleStatus } from '@/components/review/adjudication-screen';
import { submitRubricAdjudicationAction } from '@/app/(app)/studies/[id]/adjudicate/actions';

type State = { labels: Readonly<Record<string, string>>; rationales: Readonly<Record<string, string>>; focus: number };

const overrules = (d: RubricAdjudicationDimensionDto, label: string) => !d.reviewers.includes(label);

function problemsOf(disputed: readonly RubricAdjudicationDimensionDto[], s: State) {
  const out: { index: number; id: string; message: string }[] = [];
  disputed.forEach((d, index) => {
    const label = s.labels[d.id];
    if (!label) out.push({ index, id: d.id, message: 'Choose a final label.' });
    else if (overrules(d, label) && !s.rationales[d.id]?.trim())
      out.push({ index, id: d.id, message: 'Explain why you overrule the reviewers.' });
  });
  return out;
}

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

  const { state, stateRef, change, errors, clearError, hint, setHint, trySubmit, onFocusRow, pending, generalError } = useAdjudication({
    studyId,
    itemId,
    disputed,
    initial: (): State => {
      const labels = Object.fromEntries(disputed.filter((d) => d.ruling).map((d) => [d.id, d.ruling!]));
      const rationales = Object.fromEntries(disputed.filter((d) => d.rationale).map((d) => [d.id, d.rationale!]));
      // On the first dimension still without a final label, as on the pairwise screen.
      return { labels, rationales, focus: nextWithout(disputed, labels, -1) ?? 0 };
    },
    problemsOf: (s) => problemsOf(disputed, s),
    problemsHint: (problems) => `${problems.length} still open. First: ${disputed[problems[0].index].name} — ${problems[0].message}`,
    send: (s, requestId) => {
      const { answers: labels, rationales } = rulingsOf(disputed, s.labels, s.rationales);
      return submitRubricAdjudicationAction({ studyId, itemId, requestId, labels, rationales });
    },
    onLeaveField: (field, e) => {
      e.preventDefault();
      field.blur();
    },
    onKey: (e, s) => {
      switch (e.key) {
        case 'i':
          e.preventDefault();
          toggleDetails(disputed[s.focus].id);
          return;
        case 'r':
          e.preventDefault();
          listRef.current?.querySelector<HTMLTextAreaElement>(`textarea[data-rationale="${CSS.escape(disputed[s.focus].id)}"]`)?.focus();
          return;
        default: {
          const label = labelForKey(e.key, disputed[s.focus].labels);
          if (label === null) return;
          e.preventDefault();
          onChoose(s.focus, label, true);
        }
      }
    },
  });

  const onChoose = useCallback(
    (index: number, label: string, advance = false) => {
      const d = disputed[index];
      if (!d) return;
      clearError(d.id);
      const mustExplain = overrules(d, label) && !stateRef.current.rationales[d.id]?.trim();
      setHint(mustExplain ? `${d.name}: your label differs from every reviewer, so it needs a rationale (press r to write it).` : null);
      change((s) => {
        const labels = { ...s.labels, [d.id]: label };
        return { ...s, labels, focus: advance ? (nextWithout(disputed, labels, index) ?? index) : index };
      });
    },
    [disputed, change, clearError, setHint, stateRef],
  );
  useFollowFocus(listRef, state.focus, itemId);

  const open = problemsOf(disputed, state).length;
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
                  value={state.labels[d.id] ?? null}
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
                        onChange={(e) => {
                          const text = e.target.value;
                          change((s) => ({ ...s, rationales: { ...s.rationales, [d.id]: text } }));
                        }}
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
        focused={focused ? { name: focused.name, value: state.labels[focused.id] ?? null } : null}
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
