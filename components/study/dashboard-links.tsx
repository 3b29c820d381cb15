import { Link } from '@/components/ui/link';

/** Every kind's dashboards have the same tabs (app/(app)/studies/[id]/analytics), so every study page links them alike. */
const DASHBOARDS = [
  ['agreement', 'Agreement'],
  ['alignment', 'Judge alignment'],
  ['leaderboard', 'Leaderboard'],
  ['hybrid', 'Hybrid review plan'],
  ['bias', 'Bias'],
  ['annotators', 'Annotators'],
] as const;

/** The study page's links to its dashboards and its judge runs, the same for every kind of study that has them. */
export function DashboardLinks({ studyId }: { studyId: number }) {
  const link = 'rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50';
  return (
    <nav aria-label="Analytics" className="mt-3 flex flex-wrap gap-3 text-sm">
      {DASHBOARDS.map(([path, label]) => (
        <Link key={path} href={`/studies/${studyId}/analytics/${path}`} className={link}>
          {label}
        </Link>
      ))}
      <Link href={`/studies/${studyId}/judges`} className={link}>
        Judge runs
      </Link>
    </nav>
  );
}
