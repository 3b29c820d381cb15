import type { ComponentPropsWithRef } from 'react';
import { FieldFrame, controlClasses, describedBy, errorText, useFieldIds, type FieldProps } from './field';

export type TextareaProps = ComponentPropsWithRef<'textarea'> &
  FieldProps & {
    /** Class of the wrapper holding label, control and messages; `className` styles the control. */
    wrapperClassName?: string;
  };

export function Textarea({
  id,
  label,
  hint,
  error,
  required,
  className,
  wrapperClassName,
  rows = 4,
  'aria-describedby': extraDescribedBy,
  ...props
}: TextareaProps) {
  const ids = useFieldIds(id);
  const message = errorText(error);
  return (
    <FieldFrame ids={ids} label={label} hint={hint} error={message} required={required} className={wrapperClassName}>
      <textarea
        id={ids.id}
        rows={rows}
        required={required}
        aria-invalid={message ? true : undefined}
        aria-describedby={describedBy(extraDescribedBy, hint != null && ids.hintId, message && ids.errorId)}
        className={controlClasses(message !== null, className)}
        {...props}
      />
    </FieldFrame>
  );
}
