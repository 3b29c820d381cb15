'use client';

import { ChoiceActionBar } from '@/components/kinds/pairwise/action-bar';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AdjudicationRow } from '@/components/kinds/pairwise/adjudication-row';
import { CHOICE_LABEL, choiceForKey } from '@/components/kinds/pairwise/choices';
import { CriterionGroupList, groupCriteria } from '@/components/kinds/pairwise/criteria-groups';
import { ItemContext } from '@/components/kinds/pairwise/item-context';
import { useFollowFocus } from '@/components/review/follow-focus';
import { ResponsePair } from '@/components/kinds/pairwise/response-pair';
import { useAdjudication } from '@/components/review/use-adjudication';
import { useToggleSet } from '@/components/review/use-toggle-set';
import type { AdjudicationCriterionDto, AdjudicationItemDto } from '@/lib/server/review/dto';
import { AdjudicationItemLabel, settleStatus } from '@/components/review/adjudication-screen';
import { submitAdjudicationAction } from '@/app/(app)/studies/[id]/adjudicate/actions';
/** Criteria the adjudicator must settle: the reviewers differ (and there are labels to differ). */
const isDisputed = (c: AdjudicationCriterionDto) => !c.agreed && c.reviewers.length > 0;

export function AdjudicationPanel({ item }: { item: AdjudicationItemDto }) {
  const { itemId, studyId } = item;
  const disputed = useMemo(() => item.criteria.filter(isDisputed), [item.criteria]);
  const settled = useMemo(() => item.criteria.filter((c) => c.agreed), [item.criteria]);
  const unlabelled = useMemo(() => item.criteria.filter((c) => !c.agreed && c.reviewers.length === 0), [item.criteria]);

  const [openNotes, setOpenNotes] = useState<ReadonlySet<string>>(() => new Set());
  const [expanded, onToggleDetails] = useToggleSet();
  const listRef = useRef<HTMLDivElement>(null);
  /** A rationale field to focus once it has been rendered. */
  const focusNoteAfterRender = useRef<string | null>(null);

  const noteField = useCallback(
    (id: string) => listRef.current?.querySelector<HTMLTextAreaElement>(`textarea[data-rationale="${CSS.escape(id)}"]`) ?? null,
    [],
  );

  const focusRationale = useCallback(
    (id: string) => {
      const field = noteField(id);
      if (field) return field.focus();
      focusNoteAfterRender.current = id;
      setOpenNotes((s) => new Set(s).add(id));
    },
    [noteField],
  );

  const { state, errors, hint, trySubmit, onChoose, onRationale, onFocusRow, open, pending, generalError } = useAdjudication({
    studyId,
    itemId,
    disputed,
    valueForKey: choiceForKey,
    toggleDetails: onToggleDetails,
    focusRationale,
    send: ({ answers: choices, rationales }, requestId) => submitAdjudicationAction({ studyId, itemId, requestId, choices, rationales }),
    onLeaveField: (field, e) => {
      if (!listRef.current?.contains(field)) return;
      // Back to the criteria list, on the field's row, so j/k, 1/2/3 and Enter are shortcuts again.
      e.preventDefault();
      const row = field.closest<HTMLElement>('[data-row]');
      const radio =
        row?.querySelector<HTMLElement>('input[type="radio"]:checked') ?? row?.querySelector<HTMLElement>('input[type="radio"]');
      if (row) onFocusRow(Number(row.dataset.row));
      if (radio) radio.focus();
      else field.blur();
    },
  });

  useFollowFocus(listRef, state.focus, itemId);
  // After useFollowFocus, so a rationale asked for wins over the row's radio.
  useEffect(() => {
    const id = focusNoteAfterRender.current;
    if (!id) return;
    const field = noteField(id);
    if (field) {
      focusNoteAfterRender.current = null;
      field.focus();
    }
  });

  const groups = useMemo(() => groupCriteria(disputed), [disputed]);
  const focused = disputed[state.focus];

  return (
    <div>
      <AdjudicationItemLabel position={item.position} disputed={disputed.length} reviewers={item.reviewerCount} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="min-w-0 space-y-4">
          <ItemContext problem={item.problem} instructions={item.instructions} principles={item.principles} history={item.history} />
          <ResponsePair responses={item.responses} />
        </div>
        <section
          aria-labelledby="disagreements-heading"
          className="min-w-0 lg:sticky lg:top-4 lg:max-h-[calc(100dvh-8.5rem)] lg:self-start lg:overflow-y-auto lg:pr-1"
        >
          <div className="mb-2 flex items-baseline justify-between gap-2">
            <h2 id="disagreements-heading" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
              Disagreements
            </h2>
            <span className="text-xs text-slate-500 tabular-nums">
              {disputed.length - open} of {disputed.length} settled
            </span>
          </div>
          <div ref={listRef} className="space-y-4 pb-2">
            {disputed.length === 0 && <p className="text-sm text-slate-500">The reviewers agree on every criterion of this item.</p>}
            {groups.map((g) => (
              <CriterionGroupList key={g.key} id={`adj-group-${g.key}`} title={g.title} level={g.level}>
                {g.rows.map(({ criterion, index }) => (
                  <AdjudicationRow
                    key={criterion.id}
                    criterion={criterion}
                    index={index}
                    choice={state.answers[criterion.id] ?? null}
                    rationale={state.rationales[criterion.id] ?? ''}
                    noteOpen={openNotes.has(criterion.id)}
                    focused={state.focus === index}
                    expanded={expanded.has(criterion.id)}
                    error={errors[criterion.id] ?? null}
                    onChoose={onChoose}
                    onFocusRow={onFocusRow}
                    onToggleDetails={onToggleDetails}
                    onRationale={onRationale}
                    onOpenNote={focusRationale}
                  />
                ))}
              </CriterionGroupList>
            ))}
          </div>
          {(settled.length > 0 || unlabelled.length > 0) && (
            <details className="mt-4 rounded-lg border border-slate-200 bg-white text-sm" data-testid="agreed-criteria">
              <summary className="cursor-pointer px-3 py-2 font-medium text-slate-700">Settled by agreement ({settled.length})</summary>
              <ul className="divide-y divide-slate-100 px-3 pb-2">
                {settled.map((c) => (
                  <li key={c.id} data-testid={`agreed-${c.id}`} className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5">
                    <span className={c.level === 'overall' ? 'font-semibold' : undefined}>{c.name}</span>
                    <span className="text-slate-600">
                      {c.reviewers.length === 2 ? 'Both reviewers' : 'All reviewers'}:{' '}
                      <span className="font-semibold text-slate-800">{CHOICE_LABEL[c.reviewers[0]]}</span>
                    </span>
                  </li>
                ))}
                {unlabelled.map((c) => (
                  <li key={c.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5">
                    <span>{c.name}</span>
                    <span className="text-slate-500">No reviewer labels</span>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </section>
      </div>

      <ChoiceActionBar
        action="Settle"
        focused={focused ? { name: focused.name, choice: state.answers[focused.id] } : null}
        unset="no final label yet"
        extraKey={{ key: 'r', label: 'rationale' }}
        moreKeys={[
          { key: 'Esc', label: 'leave it' },
          { key: 'i', label: 'details' },
        ]}
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
