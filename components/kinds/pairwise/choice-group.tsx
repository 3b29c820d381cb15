import { memo } from 'react';
import { cn } from '@/components/ui/cn';
import { Kbd } from '@/components/ui/kbd';
import { CHOICES, type ScreenChoice } from './choices';

type Props = {
  /** Unique per item and criterion: the radios of one criterion form one group. */
  name: string;
  /** Id of the element naming the group (the criterion's name). */
  labelledBy: string;
  value: ScreenChoice | null;
  onChange: (value: ScreenChoice) => void;
  /** Small captions under options, e.g. which reviewer chose it (visual only; the row says it in words). */
  notes?: Partial<Record<ScreenChoice, string>>;
  invalid?: boolean;
  /** Shows each option's key (1, 2, 3) on it: on the focused row, where the keys act. */
  showKeys?: boolean;
};

/**
 * "Response 1 better / Tie / Response 2 better" as native radios styled as a segmented control: Tab reaches the
 * group, ←/→ change the choice, and assistive technology announces a radio group named after the criterion.
 */
export const ChoiceGroup = memo(function ChoiceGroup({ name, labelledBy, value, onChange, notes, invalid, showKeys }: Props) {
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} aria-invalid={invalid || undefined} className="grid grid-cols-3 gap-1.5">
      {CHOICES.map((c) => {
        const checked = value === c.value;
        return (
          <label
            key={c.value}
            className={cn(
              'relative flex min-h-9 cursor-pointer flex-col items-center justify-center rounded-md border px-1 py-1 text-center text-xs leading-tight font-medium transition-colors select-none',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-500',
              checked
                ? c.value === 'tie'
                  ? 'border-slate-700 bg-slate-700 text-white'
                  : 'border-accent-600 bg-accent-600 text-white'
                : invalid
                  ? 'border-amber-400 bg-white text-slate-700 hover:bg-amber-50'
                  : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
            )}
          >
            <input type="radio" name={name} value={c.value} checked={checked} onChange={() => onChange(c.value)} className="sr-only" />
            <span className="inline-flex items-center gap-1">
              {c.label}
              {showKeys && (
                <Kbd
                  aria-hidden="true"
                  className={cn('min-w-4 px-1 text-[0.65rem] leading-4', checked && 'border-white/40 bg-white/15 text-white shadow-none')}
                >
                  {c.key}
                </Kbd>
              )}
            </span>
            {notes?.[c.value] && (
              <span aria-hidden="true" className={cn('mt-0.5 text-[0.65rem] font-normal', checked ? 'text-white/85' : 'text-slate-500')}>
                {notes[c.value]}
              </span>
            )}
          </label>
        );
      })}
    </div>
  );
});
