import type { ComponentPropsWithRef } from 'react';
import { FieldFrame, controlClasses, describedBy, errorText, useFieldIds, type FieldProps } from './field';
import { cn } from './cn';

export type SelectProps = ComponentPropsWithRef<'select'> &
  FieldProps & {
    /** Class of the wrapper holding label, control and messages; `className` styles the control. */
    wrapperClassName?: string;
  };

/** A native <select>: children are <option> elements. */
export function Select({
  id,
  label,
  hint,
  error,
  required,
  className,
  wrapperClassName,
  children,
  'aria-describedby': extraDescribedBy,
  ...props
}: SelectProps) {
  const ids = useFieldIds(id);
  const message = errorText(error);
  return (
    <FieldFrame ids={ids} label={label} hint={hint} error={message} required={required} className={wrapperClassName}>
      <select
        id={ids.id}
        required={required}
        aria-invalid={message ? true : undefined}
        aria-describedby={describedBy(extraDescribedBy, hint != null && ids.hintId, message && ids.errorId)}
        className={controlClasses(message !== null, cn('pr-8', className))}
        {...props}
      >
        {children}
      </select>
    </FieldFrame>
  );
}
