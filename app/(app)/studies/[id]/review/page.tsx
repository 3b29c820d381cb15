import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { DomainError } from '@/lib/server/errors';
import { getQueue } from '@/lib/server/review/flow-review';
import { FlowReviewer } from './_components/flow-reviewer';
import { PairwiseJudge } from './_components/pairwise-judge';
import { RubricReviewer } from './_components/rubric-reviewer';

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
  if (queue.kind === 'pairwise') return <PairwiseJudge initialQueue={queue} />;
  if (queue.kind === 'rubric') return <RubricReviewer initialQueue={queue} />;
  if (queue.kind !== 'flow_review') notFound();
  return <FlowReviewer initialQueue={queue} />;
}
