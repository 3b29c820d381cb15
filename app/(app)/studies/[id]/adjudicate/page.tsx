import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { getAdjudicationQueue } from '@/lib/server/review/adjudication';
import { DomainError } from '@/lib/server/errors';
import { kindScreens } from '@/components/kinds/registry';

export const metadata: Metadata = { title: 'Adjudicate' };

export default async function AdjudicatePage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireUserPage();
  const studyId = Number((await params).id);
  if (!Number.isInteger(studyId) || studyId < 1) notFound();
  // Only the read is inside the try: an error while rendering the screen is not a missing study.
  let queue;
  try {
    queue = getAdjudicationQueue(actor, studyId);
  } catch (e) {
    if (e instanceof DomainError && (e.code === 'not_found' || e.code === 'forbidden')) notFound();
    throw e;
  }
  // A kind with nothing to adjudicate has no screen; the read above already refuses its studies.
  const Adjudicator = kindScreens(queue.kind)?.Adjudicator;
  if (!Adjudicator) notFound();
  return <Adjudicator initialQueue={queue} />;
}
