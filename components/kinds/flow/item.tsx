import { FlowContext } from '@/components/flow/flow-view';
import { FlowStepsView } from './steps-view';
import { ItemPageFrame, ItemReviewers } from '@/components/study/item-page';
import type { ItemDetailDto, ItemRevisionDto } from '@/lib/server/studies/dto';

function flowText(f: NonNullable<ItemRevisionDto['flow']>) {
  const parts: string[] = [f.decision === 'truncate' ? `truncate after step ${f.afterStep}` : f.decision];
  if (f.reasons.length) parts.push(`reasons: ${f.reasons.join(', ')}`);
  if (f.note) parts.push(`note: ${f.note}`);
  return parts.join(' · ');
}

const describe = (_previous: ItemRevisionDto | undefined, rev: ItemRevisionDto) => (rev.flow ? flowText(rev.flow) : '(no labels)');

/** One flow for the study's leads: the flow with its warnings, and each reviewer's decisions. */
export function FlowItemPage({ detail }: { detail: Extract<ItemDetailDto, { kind: 'flow_review' }> }) {
  return (
    <ItemPageFrame detail={detail}>
      <div className="grid gap-6 lg:grid-cols-[2fr_3fr]">
        <FlowContext flow={detail.flow} />
        <FlowStepsView flow={detail.flow} warnings={detail.warnings} />
      </div>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Reviewers and their decisions</h2>
        <ItemReviewers reviewers={detail.reviewers} describe={describe} />
      </section>
    </ItemPageFrame>
  );
}
