import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { DomainError } from '@/lib/server/errors';
import { listFlowDecisions } from '@/lib/server/studies/flow-report';
import { listPairwiseItems } from '@/lib/server/studies/pairwise-items';
import { getStudy } from '@/lib/server/studies/studies';
import { listJudgeRuns } from '@/lib/server/analytics/runs';
import { FlowItems, type FlowSearch } from './_components/flow-items';
import { type ItemsSearch } from './_components/items-frame';
import { PairwiseItems } from './_components/pairwise-items';
import { RubricItems } from './_components/rubric-items';
import { listRubricItems } from '@/lib/server/studies/rubric-items';

export const metadata: Metadata = { title: 'Items' };

/** The study's items for its leads: flows with their decisions, or pairwise items with their judgments and state. */
export default async function ItemsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<FlowSearch & ItemsSearch>;
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
  if (study.kind === 'pairwise') {
    const runs = listJudgeRuns(actor, id).map((r) => r.name);
    const { list, problem } = refusedFilterShown(() =>
      listPairwiseItems(actor, id, { state: sp.state, q: sp.q, judge: sp.judge, flagged: sp.flagged, page: sp.page }),
    );
    return <PairwiseItems study={study} sp={sp} list={list} problem={problem} judgeRuns={runs} />;
  }
  if (study.kind === 'rubric') {
    const { list, problem } = refusedFilterShown(() =>
      listRubricItems(actor, id, { state: sp.state, q: sp.q, flagged: sp.flagged, page: sp.page }),
    );
    return <RubricItems study={study} sp={sp} list={list} problem={problem} />;
  }
  let list;
  try {
    list = listFlowDecisions(actor, id, { decision: sp.decision, reviewer: sp.reviewer, search: sp.q, page: sp.page });
  } catch (e) {
    // A page number out of range, or a filter too long to be one, asks for a page that does not exist.
    if (e instanceof DomainError && e.code === 'invalid') notFound();
    throw e;
  }
  return <FlowItems study={study} sp={sp} list={list} page={list.page} />;
}

/** A refused filter is shown on the page, with the filters to correct it; any other error is thrown. */
function refusedFilterShown<T>(read: () => T): { list: T; problem: null } | { list: null; problem: string } {
  try {
    return { list: read(), problem: null };
  } catch (e) {
    if (!(e instanceof DomainError) || e.code !== 'invalid') throw e;
    return { list: null, problem: e.message };
  }
}
