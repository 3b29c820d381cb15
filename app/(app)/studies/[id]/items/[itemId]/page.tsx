import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { DomainError } from '@/lib/server/errors';
import { itemDetail } from '@/lib/server/studies/item-detail';
import { ItemDetail } from './_components/item-detail';
import { RubricItemView } from './_components/rubric-item';

export const metadata: Metadata = { title: 'Item' };

/** One item of a study for its leads: content, sources, every reviewer's revisions, rulings and judge verdicts. */
export default async function ItemPage({ params }: { params: Promise<{ id: string; itemId: string }> }) {
  const actor = await requireUserPage();
  if (!isStaff(actor)) notFound();
  const { id, itemId } = await params;
  const studyId = Number(id);
  const item = Number(itemId);
  if (!Number.isInteger(studyId) || studyId < 1 || !Number.isInteger(item) || item < 1) notFound();
  let detail;
  try {
    detail = itemDetail(actor, studyId, item);
  } catch (e) {
    if (e instanceof DomainError && (e.code === 'not_found' || e.code === 'invalid')) notFound();
    throw e;
  }
  return detail.kind === 'rubric' ? <RubricItemView studyId={studyId} item={detail.rubric} /> : <ItemDetail detail={detail} />;
}
