import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff, type Actor } from '@/lib/server/actor';
import { DomainError } from '@/lib/server/errors';
import { flowReport } from '@/lib/server/studies/flow-report';
import { listJudgeRuns } from '@/lib/server/analytics/runs';
import { pairwiseReport } from '@/lib/server/studies/pairwise-report';
import { groundTruthSummary } from '@/lib/server/ground-truth/ground-truth';
import { getStudy } from '@/lib/server/studies/studies';
import { listAssignablePeople } from '@/lib/server/accounts/users';
import { formatIdsOf } from '@/lib/kinds/import-formats';
import type { StudyKind } from '@/lib/validation/labels';
import { kindName } from '@/lib/kinds/names';
import { KIND_SCREENS, kindPanel, type ScreenProps } from '@/components/kinds/registry';
import { Section, money } from '@/components/study/section';
import { ImportPanel } from './_components/import-panel';
import { MembersEditor } from './_components/members-editor';
import { StudyActions } from './_components/study-actions';
import { ArchiveButton, StudySettings } from './_components/study-settings';
import { guidelineVersions } from '@/lib/server/studies/editing';
import { FlaggedItems } from './_components/flagged-items';
import { getFlaggedItems } from '@/lib/server/review/item-actions';
import { goldAccuracy } from '@/lib/server/review/gold';
import { GoldNotice, GoldSection } from './_components/gold-section';

export const metadata: Metadata = { title: 'Study' };

/**
 * What each kind's overview reads. The panels are the kind's (components/kinds); the reads stay with the page
 * because only a page may call use-cases.
 */
const OVERVIEW: { [K in StudyKind]: (actor: Actor, studyId: number) => ScreenProps<K, 'Overview'> } = {
  flow_review: (actor, studyId) => ({ report: flowReport(actor, studyId), studyId }),
  pairwise: (actor, studyId) => ({ report: pairwiseReport(actor, studyId), studyId, runs: listJudgeRuns(actor, studyId) }),
  rubric: (actor, studyId) => ({
    summary: groundTruthSummary(actor, studyId),
    progress: reviewProgress(actor, studyId),
    studyId,
    runs: listJudgeRuns(actor, studyId),
  }),
};

/**
 * The reviewers' progress and payout of any study. flowReport's counts are per assignment and kind-blind; only they
 * are kept here. (Its reviewer part belongs in a use-case of its own in lib/server/studies: a follow-up.)
 */
function reviewProgress(actor: Actor, studyId: number) {
  const { assigned, submitted, reviewers } = flowReport(actor, studyId);
  return { assigned, submitted, reviewers };
}

function overview<K extends StudyKind>(kind: K, actor: Actor, studyId: number) {
  return kindPanel(kind, 'Overview', OVERVIEW[kind](actor, studyId));
}

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
  const { HeaderLinks, Catalog, Imports, Adjudicator } = KIND_SCREENS[study.kind];
  // A Bridge import reads a folder, so it is only offered on the command line.
  const formats = formatIdsOf(study.kind, 'items', { upload: true });
  const gold = goldAccuracy(actor, id);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-500">
            {kindName(study.kind)} · <span data-testid="study-status">{study.status}</span>
          </p>
          <h1 className="text-2xl font-semibold">{study.name}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {study.itemCount.toLocaleString('en-US')} items · {study.reviewersPerItem} reviewer(s) per item · pay{' '}
            {money(study.payRateCents / 100)} per item · seed {study.seed}
            {study.deadline && <> · due {study.deadline.slice(0, 10)}</>}
            {study.archived && <> · archived</>}
          </p>
          {HeaderLinks && <HeaderLinks studyId={id} />}
        </div>
        <div className="flex items-center gap-3">
          <StudyActions studyId={id} status={study.status} />
          {study.status === 'closed' && <ArchiveButton studyId={id} archived={study.archived} />}
        </div>
      </div>

      <GoldNotice gold={gold} />

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
              adjudicated={Adjudicator !== null}
              reviewersPerItem={study.reviewersPerItem}
              people={listAssignablePeople(actor)}
              chosen={study.members.map((m) => m.username)}
              mode={study.assignmentMode}
              adjudicator={study.adjudicator?.username ?? null}
            />
          </Section>
          {Catalog && <Catalog study={study} />}
        </div>
      )}

      {Imports && study.status !== 'closed' && <Imports studyId={id} />}

      {study.status !== 'draft' && overview(study.kind, actor, id)}

      {study.status !== 'draft' && <FlaggedItems flagged={getFlaggedItems(actor, id)} />}

      <Section title="Gold items">
        <GoldSection studyId={id} status={study.status} gold={gold} />
      </Section>
    </div>
  );
}
