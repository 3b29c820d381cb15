'use client';

import { memo, useId, type ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { Kbd } from '@/components/ui/kbd';
import type { RubricDimensionDto } from '@/lib/server/review/dto';

export type DimensionRowProps = {
  dimension: RubricDimensionDto;
  /** Position in the keyboard order (j/k); the row carries it as data-row. */
  index: number;
  value: string | null;
  focused: boolean;
  expanded: boolean;
  problem?: string | null;
  onChoose: (index: number, label: string) => void;
  onFocusRow: (index: number) => void;
  /** Small captions under labels (which reviewer gave it, on the adjudication screen). */
  notes?: Readonly<Record<string, string>>;
  /** Extra content under the labels (a rationale field). */
  after?: ReactNode;
};

/**
 * One rubric dimension: its name and its labels in the dimension's order (worst first) as native radios styled as
 * buttons, each showing the key that picks it (1…k). The description shows under the name when the row is expanded.
 */
export const DimensionRow = memo(function DimensionRow({
  dimension,
  index,
  value,
  focused,
  expanded,
  problem,
  onChoose,
  onFocusRow,
  notes,
  after,
}: DimensionRowProps) {
  const id = useId();
  const nameId = `${id}-name`;
  return (
    <li
      data-row={index}
      data-testid={`dimension-${dimension.id}`}
      aria-current={focused ? 'true' : undefined}
      onClick={() => onFocusRow(index)}
      onFocus={() => onFocusRow(index)}
      className={cn(
        'scroll-mt-4 scroll-mb-32 rounded-lg border bg-white px-3 py-2 transition-[border-color,box-shadow]',
        focused ? 'border-accent-500 ring-2 ring-accent-100' : problem ? 'border-amber-400' : 'border-slate-200',
      )}
    >
      <div className="mb-1.5 flex items-baseline gap-2">
        <span id={nameId} className="min-w-0 flex-1 text-sm font-medium text-slate-800">
          {dimension.name}
        </span>
        {problem ? <span className="text-xs text-amber-800">{problem}</span> : null}
      </div>
      {expanded && dimension.description ? (
        <p className="mb-2 rounded-md bg-slate-50 px-2 py-1 text-xs text-slate-700">{dimension.description}</p>
      ) : null}
      <div role="radiogroup" aria-labelledby={nameId} aria-invalid={(!!problem && !value) || undefined} className="flex flex-wrap gap-1.5">
        {dimension.labels.map((label, k) => {
          const checked = value === label;
          return (
            <label
              key={label}
              className={cn(
                'relative flex min-h-8 min-w-20 flex-1 cursor-pointer items-center justify-center gap-1.5 rounded-md border px-2 py-1 text-center text-xs leading-tight font-medium transition-colors select-none',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-500',
                checked ? 'border-accent-600 bg-accent-600 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
              )}
            >
              <input
                type="radio"
                name={`${id}-label`}
                value={label}
                checked={checked}
                onChange={() => onChoose(index, label)}
                className="sr-only"
              />
              {k < 9 ? (
                <Kbd aria-hidden="true" className={checked ? 'border-white/40 bg-white/15 text-white shadow-none' : undefined}>
                  {k + 1}
                </Kbd>
              ) : null}
              <span>{label}</span>
              {notes?.[label] ? (
                <span aria-hidden="true" className={cn('text-[0.65rem] font-normal', checked ? 'text-white/85' : 'text-slate-500')}>
                  {notes[label]}
                </span>
              ) : null}
            </label>
          );
        })}
      </div>
      {after}
    </li>
  );
});

/** The label a digit key picks on a dimension (1 = its first label), or null. */
export function labelForKey(key: string, labels: readonly string[]): string | null {
  if (!/^[1-9]$/.test(key)) return null;
  return labels[Number(key) - 1] ?? null;
}
