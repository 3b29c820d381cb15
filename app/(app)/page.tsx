import { Link } from '@/components/ui/link';
import { redirect } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { demoStudiesMissingFor } from '@/lib/server/demo/demo-view';
import { listMyStudies } from '@/lib/server/studies/studies';
import { ProgressBar } from '@/components/ui/progress-bar';
import { kindName } from '@/lib/kinds/names';

export default async function HomePage() {
  const actor = await requireUserPage();
  const studies = listMyStudies(actor);
  // Leads and admins with no review work of their own land on the studies they run.
  if (isStaff(actor) && studies.length === 0) redirect('/studies');
  const missing = studies.length === 0 ? demoStudiesMissingFor(actor) : null;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">My work</h1>
      {studies.length === 0 ? (
        <div className="space-y-2 text-slate-600">
          <p>Nothing is assigned to you yet.</p>
          {missing && (
            <p data-testid="demo-missing-for-me">
              In this demo your work is in {missing.join(', ')}, which need public datasets this machine does not have. Run{' '}
              <code>npx concord data fetch</code> and then <code>npm run demo</code> again to add them.
            </p>
          )}
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {studies.map((s) => {
            const done = s.assigned > 0 && s.submitted === s.assigned;
            return (
              <li key={s.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                <div className="flex items-baseline justify-between gap-2">
                  <h2 className="font-medium">{s.name}</h2>
                  <span className="text-xs uppercase tracking-wide text-slate-500">
                    {kindName(s.kind)} · {s.status}
                  </span>
                </div>
                {s.deadline && <p className="mt-1 text-xs text-slate-600">Due {s.deadline.slice(0, 10)}</p>}
                {s.guidelinesUpdated && (
                  <p className="mt-1 text-xs text-amber-800" data-testid="guidelines-updated">
                    Guidelines updated since you started (version {s.guidelinesVersion})
                  </p>
                )}
                {s.disagreementsWaiting !== null && (
                  <p className="mt-2 text-sm" data-testid="disagreements-waiting">
                    {s.disagreementsWaiting === 0
                      ? 'No disagreements wait for you.'
                      : `${s.disagreementsWaiting.toLocaleString('en-US')} ${s.disagreementsWaiting === 1 ? 'item with a disagreement waits' : 'items with disagreements wait'} for you.`}
                  </p>
                )}
                {s.assigned > 0 && (
                  <div className="mt-3">
                    <ProgressBar done={s.submitted} total={s.assigned} />
                  </div>
                )}
                <div className="mt-3 flex gap-2">
                  {s.status === 'open' && s.assigned > 0 && (
                    <Link
                      href={`/studies/${s.id}/review`}
                      className="inline-block rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
                    >
                      {done ? 'Review my submissions' : s.submitted ? 'Continue' : 'Start'}
                    </Link>
                  )}
                  {s.isAdjudicator && s.status === 'open' && (
                    <Link
                      href={`/studies/${s.id}/adjudicate`}
                      className="inline-block rounded-md border border-accent-600 px-3 py-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50"
                    >
                      Adjudicate
                    </Link>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
