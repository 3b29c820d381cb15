import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { DomainError } from '@/lib/server/errors';
import { getQueue } from '@/lib/server/review/flow-review';
import { kindScreens } from '@/components/kinds/registry';

export const metadata: Metadata = { title: 'Review' };

export default async function ReviewPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireUserPage();
  const studyId = Number((await params).id);
  if (!Number.isInteger(studyId) || studyId < 1) notFound();
  let queue;
  try {
    queue = getQueue(actor, studyId);
  } catch (e) {
    if (e instanceof DomainError && e.code === 'not_found') notFound();
    throw e;
  }
  const Reviewer = kindScreens(queue.kind)?.Reviewer;
  if (!Reviewer) notFound();
  return <Reviewer initialQueue={queue} />;
}
