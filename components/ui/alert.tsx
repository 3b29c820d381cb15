import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cn } from './cn';

export type AlertTone = 'info' | 'warning' | 'error' | 'success';

const TONES: Record<AlertTone, string> = {
  info: 'border-sky-200 bg-sky-50 text-sky-900',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
  error: 'border-rose-200 bg-rose-50 text-rose-900',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
};

// Errors interrupt a screen reader; a success message is announced politely;
// info and warnings are part of the page and read in order.
const ROLES: Record<AlertTone, 'alert' | 'status' | undefined> = {
  info: undefined,
  warning: undefined,
  error: 'alert',
  success: 'status',
};

export type AlertProps = Omit<ComponentPropsWithRef<'div'>, 'title'> & {
  tone?: AlertTone;
  title?: ReactNode;
};

export function Alert({ tone = 'info', title, className, children, role, ...props }: AlertProps) {
  return (
    <div role={role ?? ROLES[tone]} className={cn('rounded-md border px-4 py-3 text-sm', TONES[tone], className)} {...props}>
      {title != null ? <p className="font-semibold">{title}</p> : null}
      {children != null ? <div className={title != null ? 'mt-1' : undefined}>{children}</div> : null}
    </div>
  );
}
