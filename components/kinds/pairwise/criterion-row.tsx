'use client';

import { memo, useCallback, useEffect, useId, useRef, type ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { Kbd } from '@/components/ui/kbd';
import { RichText } from '@/components/ui/rich-text';
import type { CriterionDto } from '@/lib/server/review/dto';
import { ChoiceGroup } from './choice-group';
import type { ScreenChoice } from './choices';

export type CriterionRowProps = {
  criterion: CriterionDto;
  /** Position in the keyboard order (j/k); the row carries it as data-row. */
  index: number;
  testId: string;
  choice: ScreenChoice | null;
  focused: boolean;
  expanded: boolean;
  /** Shown after a submit attempt when this row still needs something. */
  problem?: string | null;
  onChoose: (index: number, choice: ScreenChoice) => void;
  onFocusRow: (index: number) => void;
  onToggleDetails: (criterionId: string) => void;
  /** Extra content under the name (the reviewers' labels on the adjudication screen). */
  before?: ReactNode;
  /** Extra content under the choices (a rationale field). */
  after?: ReactNode;
  choiceNotes?: Partial<Record<ScreenChoice, string>>;
};

/**
 * One criterion: its name, the three-way choice, and its description and aspects on demand. Memoised, so a choice
 * re-renders only the rows whose props changed.
 */
export const CriterionRow = memo(function CriterionRow({
  criterion,
  index,
  testId,
  choice,
  focused,
  expanded,
  problem,
  onChoose,
  onFocusRow,
  onToggleDetails,
  before,
  after,
  choiceNotes,
}: CriterionRowProps) {
  const id = useId();
  const nameId = `${id}-name`;
  const detailsId = `${id}-details`;
  const problemId = `${id}-problem`;
  const tipId = `${id}-tip`;
  const overall = criterion.level === 'overall';
  const choose = useCallback((value: ScreenChoice) => onChoose(index, value), [onChoose, index]);
  const hasDetails = criterion.description.trim() !== '' || criterion.aspects.length > 0;
  const rowRef = useRef<HTMLLIElement>(null);
  // Opening the details of the focused row (i) must not push its choices out of sight.
  const wasExpanded = useRef(expanded);
  useEffect(() => {
    if (expanded && !wasExpanded.current && focused) rowRef.current?.scrollIntoView({ block: 'nearest' });
    wasExpanded.current = expanded;
  }, [expanded, focused]);

  return (
    <li
      ref={rowRef}
      data-row={index}
      data-testid={testId}
      aria-current={focused ? 'true' : undefined}
      aria-describedby={problem ? problemId : undefined}
      onClick={() => onFocusRow(index)}
      onFocus={() => onFocusRow(index)}
      className={cn(
        'scroll-mt-4 scroll-mb-32 rounded-lg border p-3 transition-[border-color,box-shadow]',
        overall ? 'border-2 bg-slate-50' : 'bg-white',
        focused
          ? 'border-accent-500 ring-2 ring-accent-100'
          : problem
            ? 'border-amber-400'
            : overall
              ? 'border-slate-400'
              : 'border-slate-200',
      )}
    >
      <div className="mb-2 flex items-start gap-2">
        <span className="group/name relative min-w-0 flex-1">
          <span
            id={nameId}
            tabIndex={hasDetails ? -1 : undefined}
            aria-describedby={hasDetails && !expanded ? tipId : undefined}
            className={cn(
              'text-sm',
              overall ? 'font-semibold text-slate-900' : 'font-medium text-slate-800',
              hasDetails && 'cursor-help underline decoration-slate-300 decoration-dotted underline-offset-4',
            )}
          >
            {criterion.name}
          </span>
          {/* The definition on hover of the name (the focused row shows it in the action bar too). */}
          {hasDetails && !expanded && criterion.description.trim() !== '' && (
            <span
              id={tipId}
              role="tooltip"
              data-testid="definition-tooltip"
              className="pointer-events-none invisible absolute top-full left-0 z-30 mt-1 w-72 max-w-[80vw] rounded-md bg-slate-900 px-3 py-2 text-xs leading-snug font-normal text-white opacity-0 shadow-lg transition-opacity group-hover/name:visible group-hover/name:opacity-100 group-focus-within/name:visible group-focus-within/name:opacity-100"
            >
              {criterion.description}
            </span>
          )}
        </span>
        {hasDetails && (
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={expanded ? detailsId : undefined}
            onClick={() => onToggleDetails(criterion.id)}
            className="inline-flex shrink-0 items-center gap-1 rounded px-1 text-xs text-slate-500 hover:bg-slate-100 hover:text-slate-800"
          >
            {expanded ? 'Hide details' : 'Details'}
            <span className="sr-only"> of {criterion.name}</span>
            {focused && <Kbd aria-hidden="true">i</Kbd>}
          </button>
        )}
      </div>
      {expanded && hasDetails && (
        <div id={detailsId} className="mb-2 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">
          {criterion.description.trim() !== '' && <RichText text={criterion.description} />}
          {criterion.aspects.length > 0 && (
            <ul className="mt-1 list-disc space-y-0.5 pl-5 text-xs text-slate-600" aria-label="Aspects">
              {criterion.aspects.map((a, i) => (
                <li key={i}>
                  <RichText text={a} inline />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {before}
      <ChoiceGroup
        name={`${id}-choice`}
        labelledBy={nameId}
        value={choice}
        onChange={choose}
        notes={choiceNotes}
        invalid={!!problem && !choice}
        showKeys={focused}
      />
      {after}
      {problem && (
        <p id={problemId} className="mt-1.5 text-xs font-medium text-amber-800">
          {problem}
        </p>
      )}
    </li>
  );
});
