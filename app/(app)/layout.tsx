import { Link } from '@/components/ui/link';
import type { ReactNode } from 'react';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { signOutAction } from './actions';

export default async function AppLayout({ children }: { children: ReactNode }) {
  const actor = await requireUserPage();
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <nav aria-label="Main" className="mx-auto flex max-w-7xl items-center gap-6 px-4 py-3 text-sm">
          <Link href="/" className="text-base font-semibold text-slate-900">
            Concord
          </Link>
          <Link href="/" className="text-slate-600 hover:text-slate-900">
            My work
          </Link>
          {isStaff(actor) && (
            <Link href="/studies" className="text-slate-600 hover:text-slate-900">
              Studies
            </Link>
          )}
          {actor.role === 'admin' && (
            <>
              <Link href="/admin/users" className="text-slate-600 hover:text-slate-900">
                Accounts
              </Link>
              <Link href="/admin/judge-endpoints" className="text-slate-600 hover:text-slate-900">
                Judge endpoints
              </Link>
            </>
          )}
          <Link
            href="/account"
            className="ml-auto text-slate-600 hover:text-slate-900"
            data-testid="signed-in-as"
            aria-label={`Your account: ${actor.displayName} (${actor.role})`}
          >
            {actor.displayName} <span className="text-slate-500">({actor.role})</span>
          </Link>
          <form action={signOutAction}>
            <button type="submit" className="text-slate-600 underline-offset-2 hover:underline">
              Sign out
            </button>
          </form>
        </nav>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
    </div>
  );
}
