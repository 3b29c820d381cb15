import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cn } from './cn';

export type TableProps = ComponentPropsWithRef<'table'> & {
  /** Names the table for assistive technology; shown above it unless `captionHidden`. */
  caption?: ReactNode;
  captionHidden?: boolean;
  /** Class of the scrolling wrapper; `className` styles the <table>. */
  wrapperClassName?: string;
};

/** Wide tables scroll sideways inside their wrapper instead of widening the page. */
export function Table({ caption, captionHidden = false, className, wrapperClassName, children, ...props }: TableProps) {
  return (
    <div className={cn('overflow-x-auto rounded-lg border border-slate-200 bg-white', wrapperClassName)}>
      <table className={cn('w-full border-collapse text-sm', className)} {...props}>
        {caption != null ? (
          <caption className={cn(captionHidden ? 'sr-only' : 'px-4 py-2 text-left text-sm font-medium text-slate-700')}>{caption}</caption>
        ) : null}
        {children}
      </table>
    </div>
  );
}

export function THead({ className, ...props }: ComponentPropsWithRef<'thead'>) {
  return <thead className={cn('border-b border-slate-200 bg-slate-50', className)} {...props} />;
}

export function TBody({ className, ...props }: ComponentPropsWithRef<'tbody'>) {
  return <tbody className={cn('divide-y divide-slate-100', className)} {...props} />;
}

export function TR({ className, ...props }: ComponentPropsWithRef<'tr'>) {
  return <tr className={cn('align-top', className)} {...props} />;
}

type CellAlignment = {
  /** Right-aligned with tabular figures, so digits line up down a column. */
  numeric?: boolean;
};

export function TH({ numeric = false, scope = 'col', className, ...props }: ComponentPropsWithRef<'th'> & CellAlignment) {
  return (
    <th
      scope={scope}
      className={cn(
        'px-3 py-2 text-xs font-semibold tracking-wide text-slate-600 uppercase',
        numeric ? 'text-right' : 'text-left',
        className,
      )}
      {...props}
    />
  );
}

export function TD({ numeric = false, className, ...props }: ComponentPropsWithRef<'td'> & CellAlignment) {
  return <td className={cn('px-3 py-2 text-slate-800', numeric ? 'text-right tabular-nums' : 'text-left', className)} {...props} />;
}
