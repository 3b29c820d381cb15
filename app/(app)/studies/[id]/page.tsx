import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { DomainError } from '@/lib/server/errors';
import { flowReport } from '@/lib/server/studies/flow-report';
import { listJudgeRuns } from '@/lib/server/analytics/runs';
import { pairwiseReport } from '@/lib/server/studies/pairwise-report';
import { CriteriaUpload } from './_components/criteria-panel';
import { FlowOverview } from './_components/flow-overview';
import { PairwiseOverview } from './_components/pairwise-overview';
import { RubricOverview } from './_components/rubric-overview';
import { rubricGroundTruthSummary } from '@/lib/server/ground-truth/rubric-ground-truth';
import { getStudy } from '@/lib/server/studies/studies';
import { listAssignablePeople } from '@/lib/server/accounts/users';
import { ANNOTATION_FORMATS, JUDGE_IMPORT_FORMATS, UPLOAD_FORMATS } from '@/lib/validation/studies';
import { ImportPanel } from './_components/import-panel';
import { MembersEditor } from './_components/members-editor';
import { StudyActions } from './_components/study-actions';
import { ArchiveButton, StudySettings } from './_components/study-settings';
import { guidelineVersions } from '@/lib/server/studies/editing';
import { Section, money } from './_components/section';
import { FlaggedItems } from './_components/flagged-items';
import { getFlaggedItems } from '@/lib/server/review/item-actions';

export const metadata: Metadata = { title: 'Study' };

export default async function StudyPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireUserPage();
  if (!isStaff(actor)) notFound();
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id < 1) notFound();
  let study;
  try {
    study = getStudy(actor, id);
  } catch (e) {
    if (e instanceof DomainError && e.code === 'not_found') notFound();
    throw e;
  }
  const report = study.kind === 'flow_review' ? flowReport(actor, id) : null;
  // A Bridge import reads a folder, so it is only offered on the command line.
  const formats = UPLOAD_FORMATS[study.kind as keyof typeof UPLOAD_FORMATS] ?? [];

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-500">
            {study.kind === 'flow_review' ? 'Flow review' : study.kind} · <span data-testid="study-status">{study.status}</span>
          </p>
          <h1 className="text-2xl font-semibold">{study.name}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {study.itemCount.toLocaleString('en-US')} items · {study.reviewersPerItem} reviewer(s) per item · pay{' '}
            {money(study.payRateCents / 100)} per item · seed {study.seed}
            {study.deadline && <> · due {study.deadline.slice(0, 10)}</>}
            {study.archived && <> · archived</>}
          </p>
          {study.kind === 'rubric' && (
            <p className="mt-1 text-sm">
              <Link href={`/studies/${id}/judges`} className="text-accent-700 hover:underline">
                Judge runs
              </Link>
            </p>
          )}
        </div>
        <div className="flex items-center gap-3">
          <StudyActions studyId={id} status={study.status} />
          {study.status === 'closed' && <ArchiveButton studyId={id} archived={study.archived} />}
        </div>
      </div>

      {study.status !== 'closed' && (
        <details className="rounded-lg border border-slate-200 bg-white p-4">
          <summary className="cursor-pointer text-sm font-medium">
            Edit study: name, guidelines, deadline{study.status === 'open' ? ', reviewers' : ''}
          </summary>
          <div className="mt-4">
            <StudySettings
              studyId={id}
              status={study.status}
              name={study.name}
              guidelines={study.guidelines}
              deadline={study.deadline}
              members={study.members.map((m) => m.username)}
              adjudicator={study.adjudicator?.username ?? null}
              people={listAssignablePeople(actor)}
              versions={guidelineVersions(actor, id)}
            />
          </div>
        </details>
      )}

      {study.status === 'draft' && (
        <div className="grid gap-6 lg:grid-cols-2">
          <Section title="Import items">
            <ImportPanel studyId={id} formats={formats} />
          </Section>
          <Section title="People">
            <MembersEditor
              studyId={id}
              kind={study.kind}
              reviewersPerItem={study.reviewersPerItem}
              people={listAssignablePeople(actor)}
              chosen={study.members.map((m) => m.username)}
              mode={study.assignmentMode}
              adjudicator={study.adjudicator?.username ?? null}
            />
          </Section>
          {study.dimensions && (
            <Section title={`Dimensions (${study.dimensions.length})`}>
              <ul className="max-h-64 space-y-1 overflow-auto text-sm" data-testid="study-dimensions">
                {study.dimensions.map((d) => (
                  <li key={d.id}>
                    <span className="font-medium">{d.name}</span>{' '}
                    <span className="text-slate-500">
                      — {d.labels.join(' / ')}; desired {d.desired}
                      {d.lenient && Object.keys(d.lenient).length > 0
                        ? `; lenient ${Object.entries(d.lenient)
                            .map(([from, to]) => `${from} → ${to}`)
                            .join(', ')}`
                        : ''}
                    </span>
                  </li>
                ))}
              </ul>
              <p className="mt-2 text-xs text-slate-500">The catalog is fixed once the study exists.</p>
            </Section>
          )}
          {study.kind === 'pairwise' && (
            <Section title={`Criteria (${study.criteria.length} + overall)`}>
              <ul className="mb-3 max-h-64 space-y-1 overflow-auto text-sm">
                {study.criteria.map((c) => (
                  <li key={c.id}>
                    <span className="font-medium">{c.name}</span>{' '}
                    <span className="text-slate-500">
                      ({c.level === 'principle' ? c.principle : 'general'}) — {c.description}
                    </span>
                  </li>
                ))}
              </ul>
              <CriteriaUpload studyId={id} />
            </Section>
          )}
        </div>
      )}

      {study.kind === 'rubric' && study.status !== 'closed' && (
        <div className="grid gap-6 lg:grid-cols-2">
          <Section title="Import prior annotations">
            <ImportPanel studyId={id} formats={ANNOTATION_FORMATS.rubric} what="annotations" />
          </Section>
          <Section title="Import a judge run">
            <ImportPanel studyId={id} formats={JUDGE_IMPORT_FORMATS.rubric} what="judge" />
          </Section>
        </div>
      )}

      {study.status !== 'draft' && study.kind === 'pairwise' && (
        <PairwiseOverview report={pairwiseReport(actor, id)} studyId={id} runs={listJudgeRuns(actor, id)} />
      )}

      {study.status !== 'draft' && study.kind === 'rubric' && (
        <RubricOverview summary={rubricGroundTruthSummary(actor, id)} studyId={id} runs={listJudgeRuns(actor, id)} />
      )}

      {study.status !== 'draft' && report && <FlowOverview report={report} studyId={id} />}

      {study.status !== 'draft' && <FlaggedItems flagged={getFlaggedItems(actor, id)} />}
    </div>
  );
}
