'use client';

import { ChoiceActionBar } from '@/components/kinds/pairwise/action-bar';
import { useCallback, useMemo, useRef } from 'react';
import { choiceForKey, type ScreenChoice } from '@/components/kinds/pairwise/choices';
import { CriterionGroupList, groupCriteria } from '@/components/kinds/pairwise/criteria-groups';
import { CriterionRow } from '@/components/kinds/pairwise/criterion-row';
import { ItemContext } from '@/components/kinds/pairwise/item-context';
import { useFollowFocus } from '@/components/review/follow-focus';
import { useScrolledToEnd } from '@/components/review/scroll-to-end';
import { ResponsePair } from '@/components/kinds/pairwise/response-pair';
import { nextWithout } from '@/components/review/rows';
import { UndoLastButton } from '@/components/review/undo-last-button';
import { useReviewDraft } from '@/components/review/use-review-draft';
import { useToggleSet } from '@/components/review/use-toggle-set';
import { Kbd } from '@/components/ui/kbd';
import type { CriterionDto, JudgeAssignmentDto } from '@/lib/server/review/dto';
import { submitJudgmentAction } from '@/app/(app)/studies/[id]/review/actions';
import type { ReviewPanelProps } from '@/components/review/use-review-queue';
type Draft = { choices: Readonly<Record<string, ScreenChoice>>; focus: number };

function initialDraft(a: JudgeAssignmentDto): Draft {
  const ids = new Set(a.criteria.map((c) => c.id));
  // Only choices for this item's criteria: the server rejects any other key on submit.
  const source = a.draft?.choices ?? a.submitted ?? {};
  const choices: Record<string, ScreenChoice> = {};
  for (const [id, value] of Object.entries(source)) if (ids.has(id)) choices[id] = value;
  const last = Math.max(0, a.criteria.length - 1);
  const focus = a.draft?.focus !== undefined ? Math.min(Math.max(a.draft.focus, 0), last) : (nextWithout(a.criteria, choices, -1) ?? 0);
  return { choices, focus };
}

// The focus is saved too, so a reload comes back to the same row.
const asSaved = (d: Draft) => ({ choices: d.choices, focus: d.focus });

const missingHint = (missing: readonly CriterionDto[]) => {
  const names = missing.map((c) => c.name);
  return `Choose for every criterion first. Missing: ${names.slice(0, 4).join(', ')}${names.length > 4 ? ` and ${names.length - 4} more` : ''}.`;
};

type PanelProps = ReviewPanelProps<JudgeAssignmentDto>;

export function JudgePanel(props: PanelProps) {
  const { assignment, queue, onUndo, undoPending, sending, submitError } = props;
  const { assignmentId, studyId, criteria } = assignment;
  const [expanded, onToggleDetails] = useToggleSet();
  const listRef = useRef<HTMLDivElement>(null);
  const contextRef = useRef<HTMLDivElement>(null);

  const missingOf = useCallback((d: Draft) => criteria.filter((c) => !d.choices[c.id]), [criteria]);

  const { draft, change, hint, setHint, showMissing, trySubmit, onFocusRow, saveStatus } = useReviewDraft({
    ...props,
    initial: () => initialDraft(assignment),
    toSaved: asSaved,
    rows: criteria,
    missingOf,
    missingHint,
    send: (d, ms, requestId) => {
      const choices: Record<string, ScreenChoice> = {};
      for (const c of criteria) choices[c.id] = d.choices[c.id];
      return submitJudgmentAction({ studyId, assignmentId, requestId, activeMs: ms, choices });
    },
    onKey: (e, d) => {
      switch (e.key) {
        case 'i':
          e.preventDefault();
          if (criteria[d.focus]) onToggleDetails(criteria[d.focus].id);
          return;
        case 't': {
          e.preventDefault();
          const group = groups.find((g) => g.rows.some((r) => r.index === d.focus));
          if (group) onTieGroup(group.rows.map((r) => r.index));
          return;
        }
        default: {
          const value = choiceForKey(e);
          if (value === null) return;
          e.preventDefault();
          onChoose(d.focus, value, true);
        }
      }
    },
  });

  const onChoose = useCallback(
    (index: number, value: ScreenChoice, advance = false) => {
      const id = criteria[index]?.id;
      if (!id) return;
      setHint(null);
      change((d) => {
        const choices = { ...d.choices, [id]: value };
        return { choices, focus: advance ? (nextWithout(criteria, choices, index) ?? index) : index };
      });
    },
    [criteria, change, setHint],
  );
  /** Tie for every criterion of a group that has no choice yet; the focus moves on to the next open criterion. */
  const onTieGroup = useCallback(
    (indexes: readonly number[]) => {
      setHint(null);
      change((d) => {
        const open = indexes.filter((i) => !d.choices[criteria[i].id]);
        if (open.length === 0) return d;
        const choices = { ...d.choices };
        for (const i of open) choices[criteria[i].id] = 'tie';
        return { choices, focus: nextWithout(criteria, choices, indexes.at(-1)!) ?? d.focus };
      });
    },
    [criteria, change, setHint],
  );

  useFollowFocus(listRef, draft.focus, assignmentId);
  // The context opens at the student's last turn, as the rubric screen's dialogue does (issue 26, point 1).
  useScrolledToEnd(contextRef, assignmentId);

  const groups = useMemo(() => groupCriteria(criteria), [criteria]);
  const missingCount = missingOf(draft).length;
  const chosenCount = criteria.length - missingCount;
  const focused = criteria[draft.focus];

  return (
    <div>
      <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-500">
        <span className="font-medium text-slate-700" data-testid="item-label">
          Item {assignment.position}
        </span>
        <span aria-hidden="true">·</span>
        <span>{criteria.length} criteria</span>
      </p>
      {/*
        The review area's width decides the layout (a container query: the guidelines panel takes room too). Wide: the
        problem, instructions and dialogue in a column of their own that scrolls by itself, the two replies in the
        middle, the criteria on the right, so the replies are in view on arrival. Medium: the context, held to a
        short box that scrolls, above the replies, beside the criteria. Narrow (a phone): one column, the context still
        a box that scrolls (a third of the screen, opened at the last turn), so the replies are in view on arrival.
      */}
      <div className="grid gap-5 @3xl/review:grid-cols-[minmax(0,1fr)_24rem] @3xl/review:grid-rows-[auto_1fr] @6xl/review:grid-cols-[minmax(15rem,19rem)_minmax(0,1fr)_24rem] @6xl/review:grid-rows-none">
        <div
          ref={contextRef}
          data-testid="item-context"
          data-scroll-region
          tabIndex={0}
          aria-label="Problem, instructions and dialogue"
          className="max-h-[35dvh] min-w-0 overflow-y-auto @3xl/review:col-start-1 @3xl/review:row-start-1 @3xl/review:max-h-[9rem] @3xl/review:overflow-y-auto @3xl/review:pr-1 @6xl/review:sticky @6xl/review:top-4 @6xl/review:max-h-[calc(100dvh-9.5rem)] @6xl/review:self-start"
        >
          <ItemContext
            problem={assignment.problem}
            instructions={assignment.instructions}
            principles={assignment.principles}
            history={assignment.history}
          />
        </div>
        <div className="min-w-0 @3xl/review:col-start-1 @3xl/review:row-start-2 @6xl/review:col-start-2 @6xl/review:row-start-1">
          <ResponsePair responses={assignment.responses} />
        </div>
        <section
          aria-labelledby="criteria-heading"
          className="min-w-0 @3xl/review:sticky @3xl/review:top-4 @3xl/review:col-start-2 @3xl/review:row-span-2 @3xl/review:row-start-1 @3xl/review:max-h-[calc(100dvh-9.5rem)] @3xl/review:self-start @3xl/review:overflow-y-auto @3xl/review:pr-1 @6xl/review:col-start-3 @6xl/review:row-span-1"
        >
          <div className="mb-2 flex items-baseline justify-between gap-2">
            <h2 id="criteria-heading" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
              Which response is better?
            </h2>
            <span className="text-xs text-slate-500 tabular-nums">
              {chosenCount} of {criteria.length} chosen
            </span>
          </div>
          <div ref={listRef} className="space-y-4 pb-2">
            {groups.map((g) => {
              const open = g.rows.filter(({ criterion }) => !draft.choices[criterion.id]).length;
              const focusedHere = g.rows.some(({ index }) => index === draft.focus);
              return (
                <CriterionGroupList
                  key={g.key}
                  id={`group-${g.key}`}
                  title={g.title}
                  level={g.level}
                  action={
                    g.rows.length > 1 && open > 0 ? (
                      <button
                        type="button"
                        onClick={() => onTieGroup(g.rows.map((r) => r.index))}
                        data-testid={`tie-open-${g.key}`}
                        className="inline-flex items-center gap-1 rounded px-1 text-xs font-normal text-slate-500 normal-case hover:bg-slate-100 hover:text-slate-800"
                      >
                        Tie for the {open} open
                        {focusedHere && <Kbd aria-hidden="true">t</Kbd>}
                      </button>
                    ) : null
                  }
                >
                  {g.rows.map(({ criterion, index }) => (
                    <CriterionRow
                      key={criterion.id}
                      criterion={criterion}
                      index={index}
                      testId={`criterion-${criterion.id}`}
                      choice={draft.choices[criterion.id] ?? null}
                      focused={draft.focus === index}
                      expanded={expanded.has(criterion.id)}
                      problem={showMissing && !draft.choices[criterion.id] ? 'Choose one of the three.' : null}
                      onChoose={onChoose}
                      onFocusRow={onFocusRow}
                      onToggleDetails={onToggleDetails}
                    />
                  ))}
                </CriterionGroupList>
              );
            })}
          </div>
        </section>
      </div>

      <ChoiceActionBar
        action="Submit"
        focused={focused ? { name: focused.name, choice: draft.choices[focused.id], description: focused.description } : null}
        unset="no choice yet"
        extraKey={{ key: 'i', label: 'details' }}
        moreKeys={[{ key: 't', label: 'tie the open ones of this group' }]}
        onAction={trySubmit}
        pending={sending}
        incomplete={missingCount > 0}
        error={submitError}
        hint={hint}
        status={`${missingCount === 0 ? 'Ready to submit.' : `${missingCount} criteri${missingCount === 1 ? 'on' : 'a'} still open.`} ${saveStatus}`}
        before={<UndoLastButton available={queue.undoableId !== null} onUndo={onUndo} disabled={undoPending || sending} />}
      />
    </div>
  );
}
