import 'server-only';
import { notFound } from 'next/navigation';
import { type ReactNode, cache } from 'react';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { DomainError } from '@/lib/server/errors';
import { getStudy } from '@/lib/server/studies/studies';

/**
 * Who may see the dashboards, and of which study: leads and admins only. Everyone else, and an unknown study,
 * gets the 404 page, so an annotator cannot even learn that the dashboards exist. Cached per request because the
 * layout and the page both ask.
 */
export const analyticsContext = cache(async (rawId: string) => {
  const actor = await requireUserPage();
  if (!isStaff(actor)) notFound();
  const studyId = Number(rawId);
  if (!Number.isInteger(studyId) || studyId < 1) notFound();
  try {
    return { actor, studyId, study: getStudy(actor, studyId) };
  } catch (e) {
    if (e instanceof DomainError && (e.code === 'not_found' || e.code === 'forbidden')) notFound();
    throw e;
  }
});

/** The first value of a search parameter. */
export const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** What a dashboard page knows when it draws the dashboard of the report its study's kind gets. */
export type AnalyticsView = (ctx: Awaited<ReturnType<typeof analyticsContext>> & { sp: Awaited<SearchParams> }) => ReactNode;
