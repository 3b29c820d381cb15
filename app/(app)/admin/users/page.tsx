import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { listUsers } from '@/lib/server/accounts/users';
import { backupStatusFor } from '@/lib/server/system/backup-schedule';
import { AccountsManager } from './accounts-manager';
import { BackupStatus } from './backup-status';

export const metadata: Metadata = { title: 'Accounts' };

export default async function AccountsPage() {
  const actor = await requireUserPage();
  if (actor.role !== 'admin') notFound();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Accounts</h1>
      <AccountsManager users={listUsers(actor)} selfId={actor.id} />
      <BackupStatus status={backupStatusFor(actor)} />
    </div>
  );
}
