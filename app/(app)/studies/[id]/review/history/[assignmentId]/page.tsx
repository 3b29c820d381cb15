import type { Metadata } from 'next';
import { Link } from '@/components/ui/link';
import { notFound } from 'next/navigation';
import { buttonClasses } from '@/components/ui/button';
import { requireUserPage } from '@/lib/auth/guards';
import { DomainError } from '@/lib/server/errors';
import { getMySubmission } from '@/lib/server/review/flow-review';
import { SubmissionView } from '../_components/submission-view';

export const metadata: Metadata = { title: 'My submission' };

export default async function SubmissionPage({ params }: { params: Promise<{ id: string; assignmentId: string }> }) {
  const actor = await requireUserPage();
  const p = await params;
  const studyId = Number(p.id);
  const assignmentId = Number(p.assignmentId);
  if (![studyId, assignmentId].every((n) => Number.isInteger(n) && n >= 1)) notFound();
  let submission;
  try {
    submission = getMySubmission(actor, assignmentId);
  } catch (e) {
    if (e instanceof DomainError && (e.code === 'not_found' || e.code === 'conflict')) notFound();
    throw e;
  }
  if (submission.studyId !== studyId) notFound();
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-xs tracking-wide text-slate-500 uppercase">My submission</p>
          <h1 className="text-xl font-semibold">{submission.studyName}</h1>
        </div>
        <Link href={`/studies/${studyId}/review/history`} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          All my submissions
        </Link>
      </div>
      <SubmissionView submission={submission} />
    </div>
  );
}
