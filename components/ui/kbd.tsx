import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

/** A key, as a hint: hidden on touch screens (a coarse pointer), where there is no keyboard to press it on. */
export function Kbd({ className, ...props }: ComponentPropsWithRef<'kbd'>) {
  return (
    <kbd
      className={cn(
        'inline-flex min-w-[1.5rem] items-center justify-center rounded border border-slate-300 bg-slate-50',
        'px-1.5 font-mono text-xs font-medium text-slate-700 shadow-[0_1px_0_0] shadow-slate-300',
        'pointer-coarse:hidden',
        className,
      )}
      {...props}
    />
  );
}
