import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff, type Actor } from '@/lib/server/actor';
import { DomainError } from '@/lib/server/errors';
import { listFlowDecisions } from '@/lib/server/studies/flow-report';
import { listPairwiseItems, listRubricItems } from '@/lib/server/studies/items';
import { getStudy } from '@/lib/server/studies/studies';
import { listJudgeRuns } from '@/lib/server/analytics/runs';
import type { StudyDto } from '@/lib/server/studies/dto';
import type { StudyKind } from '@/lib/validation/labels';
import { kindPanel, type ScreenProps } from '@/components/kinds/registry';
import type { FlowSearch } from '@/components/kinds/flow/items';
import type { ItemsSearch } from '@/components/study/items-frame';
import { listGoldItems } from '@/lib/server/review/gold';
import { GoldItems } from '../_components/gold-items';

export const metadata: Metadata = { title: 'Items' };

type Search = FlowSearch & ItemsSearch;

/**
 * What each kind's items panel reads. The panels are the kind's (components/kinds); the reads stay with the page
 * because only a page may call use-cases.
 */
const ITEMS: { [K in StudyKind]: (actor: Actor, study: StudyDto, sp: Search) => ScreenProps<K, 'Items'> } = {
  flow_review: (actor, study, sp) => {
    let list;
    try {
      list = listFlowDecisions(actor, study.id, { decision: sp.decision, reviewer: sp.reviewer, search: sp.q, page: sp.page });
    } catch (e) {
      // A page number out of range, or a filter too long to be one, asks for a page that does not exist.
      if (e instanceof DomainError && e.code === 'invalid') notFound();
      throw e;
    }
    return { study, sp, list, page: list.page };
  },
  pairwise: (actor, study, sp) => {
    const judgeRuns = listJudgeRuns(actor, study.id).map((r) => r.name);
    const { list, problem } = refusedFilterShown(() =>
      listPairwiseItems(actor, study.id, { state: sp.state, q: sp.q, judge: sp.judge, flagged: sp.flagged, page: sp.page }),
    );
    return { study, sp, list, problem, judgeRuns };
  },
  rubric: (actor, study, sp) => {
    const { list, problem } = refusedFilterShown(() =>
      listRubricItems(actor, study.id, { state: sp.state, q: sp.q, flagged: sp.flagged, page: sp.page }),
    );
    return { study, sp, list, problem };
  },
};

/** The study's items for its leads: flows with their decisions, or pairwise and rubric items with their state. */
export default async function ItemsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
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
  return (
    <div className="space-y-4">
      {itemsPanel(study.kind, actor, study, sp)}
      <GoldItems studyId={id} items={listGoldItems(actor, id)} />
    </div>
  );
}

function itemsPanel<K extends StudyKind>(kind: K, actor: Actor, study: StudyDto, sp: Search) {
  return kindPanel(kind, 'Items', ITEMS[kind](actor, study, sp));
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
