'use client';

import { Link } from '@/components/ui/link';
import { usePathname } from 'next/navigation';
import { cn } from '@/components/ui/cn';

const TABS = [
  { slug: 'agreement', label: 'Agreement' },
  { slug: 'alignment', label: 'Alignment' },
  { slug: 'leaderboard', label: 'Leaderboard' },
  { slug: 'hybrid', label: 'Hybrid plan' },
  { slug: 'bias', label: 'Bias' },
  { slug: 'annotators', label: 'Annotators' },
] as const;

export function AnalyticsTabs({ studyId }: { studyId: number }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboards" className="border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-1">
        {TABS.map((t) => {
          const href = `/studies/${studyId}/analytics/${t.slug}`;
          const current = pathname === href;
          return (
            <li key={t.slug}>
              <Link
                href={href}
                aria-current={current ? 'page' : undefined}
                className={cn(
                  'inline-block border-b-2 px-3 py-2 text-sm font-medium',
                  current
                    ? 'border-accent-600 text-accent-700'
                    : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900',
                )}
              >
                {t.label}
              </Link>
            </li>
          );
        })}
        <li className="ml-auto">
          <Link href={`/studies/${studyId}/judges`} className="inline-block px-3 py-2 text-sm font-medium text-accent-700 hover:underline">
            Judge runs →
          </Link>
        </li>
      </ul>
    </nav>
  );
}
