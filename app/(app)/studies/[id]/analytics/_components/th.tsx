import type { ComponentPropsWithRef } from 'react';
import { cn } from '@/components/ui/cn';

/**
 * A column header like the UI kit's TH, but in the case it is written: the kit's capitals would turn κ into K and
 * α into A.
 */
export function Th({ numeric = false, scope = 'col', className, ...props }: ComponentPropsWithRef<'th'> & { numeric?: boolean }) {
  return (
    <th
      scope={scope}
      className={cn('px-3 py-2 text-xs font-semibold text-slate-600', numeric ? 'text-right' : 'text-left', className)}
      {...props}
    />
  );
}
