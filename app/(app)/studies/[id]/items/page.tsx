import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { DomainError } from '@/lib/server/errors';
import { getStudy } from '@/lib/server/studies/studies';
import { FlowItems, type FlowSearch } from './_components/flow-items';
import { PairwiseItems, type PairwiseSearch } from './_components/pairwise-items';

export const metadata: Metadata = { title: 'Items' };

/** The study's items for its leads: flows with their decisions, or pairwise items with their judgments and state. */
export default async function ItemsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<FlowSearch & PairwiseSearch>;
}) {
  const actor = await requireUserPage();
  if (!isStaff(actor)) notFound();
  const id = Number((await params).id);
  const sp = await searchParams;
  let study;
  try {
    study = getStudy(actor, id);
  } catch (e) {
    if (e instanceof DomainError && e.code === 'not_found') notFound();
    throw e;
  }
  return study.kind === 'pairwise' ? (
    <PairwiseItems actor={actor} study={study} sp={sp} />
  ) : (
    <FlowItems actor={actor} study={study} sp={sp} />
  );
}
