import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { NewStudyForm } from './new-study-form';

export const metadata: Metadata = { title: 'New study' };

export default async function NewStudyPage() {
  const actor = await requireUserPage();
  if (!isStaff(actor)) notFound();
  return (
    <div className="max-w-2xl space-y-4">
      <h1 className="text-2xl font-semibold">New study</h1>
      <NewStudyForm />
    </div>
  );
}
