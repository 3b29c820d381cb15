import type { ReactNode } from 'react';
import { cn } from './cn';

export type EmptyStateProps = {
  title: ReactNode;
  description?: ReactNode;
  /** Usually one Button or link that gets the user out of the empty state. */
  action?: ReactNode;
  icon?: ReactNode;
  className?: string;
};

export function EmptyState({ title, description, action, icon, className }: EmptyStateProps) {
  return (
    <div className={cn('flex flex-col items-center rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center', className)}>
      {icon != null ? (
        <div className="mb-3 text-slate-500" aria-hidden="true">
          {icon}
        </div>
      ) : null}
      <p className="text-sm font-semibold text-slate-900">{title}</p>
      {description != null ? <p className="mt-1 max-w-md text-sm text-slate-500">{description}</p> : null}
      {action != null ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}
