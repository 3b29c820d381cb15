import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireUserPage } from '@/lib/auth/guards';
import { isStaff } from '@/lib/server/actor';
import { DomainError } from '@/lib/server/errors';
import { itemDetail } from '@/lib/server/studies/item-detail';
import type { ItemDetailDto } from '@/lib/server/studies/dto';
import { kindPanel, type ScreenProps } from '@/components/kinds/registry';
import { getItemGold } from '@/lib/server/review/gold';
import { GoldControl } from '../../_components/gold-control';

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
  // The DTO carries its kind, which picks the panel that takes it; the gold answer is the same frame for every kind.
  return (
    <div className="space-y-6">
      {kindPanel(detail.kind, 'Item', { detail } as ScreenProps<ItemDetailDto['kind'], 'Item'>)}
      <GoldControl studyId={studyId} gold={getItemGold(actor, studyId, item)} />
    </div>
  );
}
