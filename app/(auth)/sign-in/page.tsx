import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentActor } from '@/lib/auth/guards';
import { safeNextPath } from '@/lib/auth/next-path';
import { demoView } from '@/lib/server/demo/demo-view';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  if (await currentActor()) redirect('/');
  const { next } = await searchParams;
  // Listed only when the seed made this database: a real deployment never shows accounts before sign-in.
  const demo = demoView();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 px-4 py-8">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-semibold">Concord</h1>
        <p className="mb-6 mt-1 text-sm text-slate-600">Sign in to review flows and judge tutor replies.</p>
        {/* Checked here too, so the form never carries a path the action would refuse. */}
        <SignInForm next={safeNextPath(next)} />
      </div>
      {demo && (
        <section aria-labelledby="demo-accounts" className="w-full max-w-3xl rounded-xl border border-amber-200 bg-amber-50 p-5 text-sm">
          <h2 id="demo-accounts" className="font-semibold text-amber-900">
            Demo accounts
          </h2>
          <p className="mt-1 text-amber-900">This database is the Concord demo. Every account&rsquo;s password is shown beside it.</p>
          <p className="mt-1 text-amber-900" data-testid="demo-holds">
            It holds {demo.studies.length} {demo.studies.length === 1 ? 'study' : 'studies'}: {demo.studies.join(', ')}.
          </p>
          {demo.missing.length > 0 && (
            <p className="mt-1 text-amber-900" data-testid="demo-missing">
              Not here, because their public data was not found when the demo was seeded: {demo.missing.join(', ')}. To add them, run{' '}
              <code>npx concord data fetch</code> and then <code>npm run demo</code> again.
            </p>
          )}
          <table className="mt-3 w-full text-left" data-testid="demo-accounts">
            <thead className="text-amber-900">
              <tr>
                <th className="py-1 pr-3">Username</th>
                <th className="py-1 pr-3">Password</th>
                <th className="py-1 pr-3">Role</th>
                <th className="py-1">What they see</th>
              </tr>
            </thead>
            <tbody>
              {demo.accounts.map((a) => (
                <tr key={a.username} className="border-t border-amber-200 align-top">
                  <td className="py-1 pr-3 font-mono">{a.username}</td>
                  <td className="py-1 pr-3 font-mono">{a.password}</td>
                  <td className="py-1 pr-3">{a.role}</td>
                  <td className="py-1 text-slate-700">
                    {a.sees}
                    {a.role === 'annotator' && (
                      <span className="block">
                        {a.studies.length ? `Here: ${a.studies.join(', ')}.` : 'Nothing in this database yet (see above).'}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </main>
  );
}
