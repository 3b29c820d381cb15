import type { Metadata } from 'next';
import { requireUserPage } from '@/lib/auth/guards';
import { listApiTokens } from '@/lib/server/accounts/tokens';
import { TokenManager } from './token-manager';

export const metadata: Metadata = { title: 'Account' };

export default async function AccountPage() {
  const actor = await requireUserPage();
  const isAdmin = actor.role === 'admin';
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Your account</h1>
      <p className="text-sm text-slate-700">
        Signed in as <strong>{actor.username}</strong> ({actor.role}).
      </p>
      <section aria-labelledby="tokens-title" className="space-y-3">
        <h2 id="tokens-title" className="text-lg font-semibold">
          API tokens
        </h2>
        <p className="max-w-3xl text-sm text-slate-700">
          A token lets a script or notebook use Concord&rsquo;s{' '}
          <a className="text-sky-800 underline" href="/docs/api">
            HTTP API
          </a>{' '}
          as you, with your current role: send it as <code>Authorization: Bearer cnc_…</code>. It is shown once when made; revoke it here as
          soon as it may have leaked.{isAdmin ? ' As an admin you see and can revoke everyone’s tokens.' : ''}
        </p>
        <TokenManager tokens={listApiTokens(actor, isAdmin ? { all: true } : {})} showOwner={isAdmin} self={actor.username} />
      </section>
    </div>
  );
}
