import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

export type LabelProps = ComponentPropsWithRef<'label'> & {
  /** Shows a visual marker only; the control's own `required` attribute is what assistive technology reads. */
  required?: boolean;
};

export function Label({ required = false, className, children, ...props }: LabelProps) {
  return (
    <label className={cn('block text-sm font-medium text-slate-800', className)} {...props}>
      {children}
      {required ? (
        <span className="ml-0.5 text-rose-600" aria-hidden="true">
          *
        </span>
      ) : null}
    </label>
  );
}
