import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';
import { SOFT_TONES, type Tone } from './tones';

export type ChipProps = ComponentPropsWithRef<'span'> & { tone?: Tone };

/** A rounded tag, e.g. a tutoring principle on a step ("Questioning"). */
export function Chip({ tone = 'accent', className, ...props }: ChipProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        SOFT_TONES[tone],
        className,
      )}
      {...props}
    />
  );
}
