import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { listAllStudies } from '@/lib/server/studies/studies';

export const metadata: Metadata = { title: 'Studies' };

export default async function StudiesPage() {
  const actor = await requireUserPage();
  if (!isStaff(actor)) notFound();
  const studies = listAllStudies(actor);
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-2xl font-semibold">Studies</h1>
        <Link href="/studies/new" className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700">
          New study
        </Link>
      </div>
      <table className="w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-sm">
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr>
            <th className="px-3 py-2">Name</th>
            <th className="px-3 py-2">Kind</th>
            <th className="px-3 py-2">Status</th>
            <th className="px-3 py-2 text-right">Items</th>
            <th className="px-3 py-2">Reviewers</th>
          </tr>
        </thead>
        <tbody>
          {studies.map((s) => (
            <tr key={s.id} className="border-t border-slate-100">
              <td className="px-3 py-2">
                <Link href={`/studies/${s.id}`} className="font-medium text-accent-700 hover:underline">
                  {s.name}
                </Link>
              </td>
              <td className="px-3 py-2">{s.kind === 'flow_review' ? 'Flow review' : s.kind}</td>
              <td className="px-3 py-2">{s.status}</td>
              <td className="px-3 py-2 text-right tabular-nums">{s.itemCount.toLocaleString('en-US')}</td>
              <td className="px-3 py-2">{s.members.map((m) => m.username).join(', ')}</td>
            </tr>
          ))}
          {studies.length === 0 && (
            <tr>
              <td colSpan={5} className="px-3 py-6 text-center text-slate-500">
                No studies yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
