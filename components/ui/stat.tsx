import type { ReactNode } from 'react';
import { cn } from './cn';
import { formatCount } from './format';

export type StatProps = {
  label: ReactNode;
  /** Numbers are formatted with thousands separators; pass a string for anything else ("0.72", "7.6%"). */
  value: ReactNode;
  sublabel?: ReactNode;
  className?: string;
};

export function Stat({ label, value, sublabel, className }: StatProps) {
  return (
    <div className={cn('rounded-lg border border-slate-200 bg-white px-4 py-3', className)}>
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{typeof value === 'number' ? formatCount(value) : value}</p>
      {sublabel != null ? <p className="mt-0.5 text-xs text-slate-500">{sublabel}</p> : null}
    </div>
  );
}
