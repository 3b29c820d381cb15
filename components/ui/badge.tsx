import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';
import { SOFT_TONES, type Tone } from './tones';

export type BadgeProps = ComponentPropsWithRef<'span'> & { tone?: Tone };

/** A short status label ("open", "adjudicated", "3 disagreements"). */
export function Badge({ tone = 'neutral', className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        SOFT_TONES[tone],
        className,
      )}
      {...props}
    />
  );
}
