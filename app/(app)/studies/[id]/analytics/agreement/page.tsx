import type { Metadata } from 'next';
import { agreementReport } from '@/lib/server/analytics/agreement';
import { reportJson } from '@/lib/server/analytics/json';
import type { ReportJson } from '@/lib/query/analytics';
import { AgreementDashboard } from '../_components/agreement-dashboard';
import { NotPairwise } from '../_components/not-pairwise';
import { RubricAgreementDashboard } from '../_components/rubric-agreement-dashboard';
import { rubricAgreementReport } from '@/lib/server/analytics/rubric-agreement';
import { analyticsContext } from '../_lib/context';

export const metadata: Metadata = { title: 'Agreement' };

export default async function AgreementPage({ params }: { params: Promise<{ id: string }> }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  if (study.kind === 'rubric') {
    const rubric = reportJson(rubricAgreementReport(actor, studyId, { bootstrap: 0 })) as ReportJson['rubric-agreement'];
    return <RubricAgreementDashboard studyId={studyId} initial={rubric} />;
  }
  if (study.kind !== 'pairwise') return <NotPairwise studyId={studyId} kind={study.kind} />;
  // Point estimates only: the bootstrap is left to the client, so the figures appear at once on any study size.
  const initial = reportJson(agreementReport(actor, studyId, { bootstrap: 0 })) as ReportJson['agreement'];
  return <AgreementDashboard studyId={studyId} initial={initial} />;
}
