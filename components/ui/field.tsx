import { useId, type ReactNode } from 'react';
import { cn } from './cn';
import { Label } from './label';

/** Props shared by Input, Textarea and Select. */
export type FieldProps = {
  /** Visible label. Without it, give the control an `aria-label` or `aria-labelledby`. */
  label?: ReactNode;
  /** Help text under the control, linked with aria-describedby. */
  hint?: ReactNode;
  /** Validation message(s), e.g. one entry of a server action's `fieldErrors`. */
  error?: string | readonly string[] | null;
};

export function errorText(error: FieldProps['error']): string | null {
  if (error == null) return null;
  const text = typeof error === 'string' ? error : error.filter(Boolean).join(' ');
  return text === '' ? null : text;
}

/** Ids for a control and its messages; an explicit id wins so pages can point labels at it. */
export function useFieldIds(id: string | undefined) {
  const generated = useId();
  const base = id ?? generated;
  return { id: base, hintId: `${base}-hint`, errorId: `${base}-error` };
}

export function describedBy(...ids: Array<string | false | null | undefined>): string | undefined {
  const joined = ids.filter(Boolean).join(' ');
  return joined === '' ? undefined : joined;
}

export function controlClasses(invalid: boolean, className?: string): string {
  return cn(
    'block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm',
    'placeholder:text-slate-400 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500',
    'focus:outline-2 focus:outline-offset-0',
    invalid ? 'border-rose-500 focus:outline-rose-500' : 'border-slate-300 focus:border-accent-500 focus:outline-accent-500',
    className,
  );
}

export function FieldFrame({
  ids,
  label,
  hint,
  error,
  required,
  className,
  children,
}: {
  ids: ReturnType<typeof useFieldIds>;
  label?: ReactNode;
  hint?: ReactNode;
  error: string | null;
  required?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      {label != null ? (
        <Label htmlFor={ids.id} required={required}>
          {label}
        </Label>
      ) : null}
      {children}
      {hint != null ? (
        <p id={ids.hintId} className="text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
      {error != null ? (
        <p id={ids.errorId} className="text-sm text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
