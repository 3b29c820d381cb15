import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { listJudgeEndpoints } from '@/lib/server/judges/endpoints';
import { EndpointsManager } from './endpoints-manager';

export const metadata: Metadata = { title: 'Judge endpoints' };

/** The chat-completions endpoints leads may run judges against (admins only; issue 21). */
export default async function JudgeEndpointsPage() {
  const actor = await requireUserPage();
  if (actor.role !== 'admin') notFound();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Judge endpoints</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        Leads run LLM judges only against the endpoints listed here, chosen by name, with one of the models you allow. The key is never
        entered here: name the environment variable of the server that holds it. Concord&apos;s own variables (AUTH_*, CONCORD_*, NODE_*)
        and system variables are refused. Loopback and private addresses are allowed, for a lab&apos;s own server.
      </p>
      <EndpointsManager endpoints={listJudgeEndpoints(actor)} />
    </div>
  );
}
