import { redirect } from 'next/navigation';
import { analyticsContext } from './_lib/context';

/** `/studies/:id/analytics` opens the first dashboard. */
export default async function AnalyticsIndex({ params }: { params: Promise<{ id: string }> }) {
  const { studyId } = await analyticsContext((await params).id);
  redirect(`/studies/${studyId}/analytics/agreement`);
}
