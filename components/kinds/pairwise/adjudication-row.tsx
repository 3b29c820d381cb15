'use client';

import { memo, useMemo } from 'react';
import { Textarea } from '@/components/ui/textarea';
import { Kbd } from '@/components/ui/kbd';
import { overrules } from '@/components/review/rulings';
import type { AdjudicationCriterionDto } from '@/lib/server/review/dto';
import { CHOICE_LABEL, CHOICES, type ScreenChoice } from './choices';
import { CriterionRow } from './criterion-row';

/** "Reviewer 1", "Reviewers 1 & 3": who picked each option, as a caption under it. */
function notesFor(reviewers: readonly ScreenChoice[]): Partial<Record<ScreenChoice, string>> {
  const notes: Partial<Record<ScreenChoice, string>> = {};
  for (const { value } of CHOICES) {
    const who = reviewers.flatMap((r, i) => (r === value ? [i + 1] : []));
    if (who.length === 1) notes[value] = `Reviewer ${who[0]}`;
    else if (who.length > 1) notes[value] = `Reviewers ${who.slice(0, -1).join(', ')} & ${who.at(-1)}`;
  }
  return notes;
}

type Props = {
  criterion: AdjudicationCriterionDto;
  index: number;
  choice: ScreenChoice | null;
  rationale: string;
  /** The rationale field was asked for (r, or the button) although no rationale is required. */
  noteOpen: boolean;
  focused: boolean;
  expanded: boolean;
  error: string | null;
  onChoose: (index: number, choice: ScreenChoice) => void;
  onFocusRow: (index: number) => void;
  onToggleDetails: (criterionId: string) => void;
  onRationale: (criterionId: string, text: string) => void;
  onOpenNote: (criterionId: string) => void;
};

/** A disagreeing criterion: what each reviewer chose, the final label, and a rationale where it overrules them. */
export const AdjudicationRow = memo(function AdjudicationRow({
  criterion,
  index,
  choice,
  rationale,
  noteOpen,
  focused,
  expanded,
  error,
  onChoose,
  onFocusRow,
  onToggleDetails,
  onRationale,
  onOpenNote,
}: Props) {
  const notes = useMemo(() => notesFor(criterion.reviewers), [criterion.reviewers]);
  const required = overrules(criterion, choice);
  const showNote = required || noteOpen || rationale !== '';
  const rationaleMissing = required && rationale.trim() === '';
  // A message about the rationale belongs to its field; anything else (no label chosen, …) to the row.
  const noteError = error && showNote && rationaleMissing ? error : null;
  const rowError = error && !noteError ? error : null;
  const everyone = criterion.reviewers.length === 2 ? 'both reviewers' : 'every reviewer';

  const before = (
    <ul className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-label={`Reviewers' choices on ${criterion.name}`}>
      {criterion.reviewers.map((r, i) => (
        <li key={i}>
          Reviewer {i + 1}: <span className="font-semibold text-slate-800">{CHOICE_LABEL[r]}</span>
        </li>
      ))}
    </ul>
  );

  const after = showNote ? (
    <Textarea
      wrapperClassName="mt-2"
      label={required ? 'Rationale' : 'Rationale (optional)'}
      required={required}
      hint={required ? `Your label differs from ${everyone}: say why.` : undefined}
      error={noteError}
      rows={2}
      maxLength={5000}
      value={rationale}
      onChange={(e) => onRationale(criterion.id, e.target.value)}
      data-rationale={criterion.id}
      placeholder={focused ? 'Esc to leave the field, Ctrl+Enter to settle' : undefined}
    />
  ) : choice !== null ? (
    <button
      type="button"
      onClick={() => onOpenNote(criterion.id)}
      className="mt-1.5 inline-flex items-center gap-1 rounded px-1 text-xs text-slate-500 hover:bg-slate-100 hover:text-slate-800"
    >
      Add a rationale<span className="sr-only"> for {criterion.name}</span>
      {focused && <Kbd aria-hidden="true">r</Kbd>}
    </button>
  ) : null;

  return (
    <CriterionRow
      criterion={criterion}
      index={index}
      testId={`adjudicate-${criterion.id}`}
      choice={choice}
      focused={focused}
      expanded={expanded}
      problem={rowError}
      onChoose={onChoose}
      onFocusRow={onFocusRow}
      onToggleDetails={onToggleDetails}
      before={before}
      after={after}
      choiceNotes={notes}
    />
  );
});
