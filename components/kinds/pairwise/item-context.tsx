import { memo } from 'react';
import { Chip } from '@/components/ui/chip';
import { RichText } from '@/components/ui/rich-text';
import { ChatHistory, type Turn } from '@/components/review/chat-history';

type Props = {
  problem: string;
  instructions: string | null;
  principles: readonly string[];
  history: readonly Turn[];
};

/**
 * What the tutor knew when it wrote its next turn: the problem, its instructions, the principles the turn should
 * follow, and the dialogue so far. Memoised on its fields, so choosing labels never re-renders the Markdown and math.
 */
export const ItemContext = memo(function ItemContext({ problem, instructions, principles, history }: Props) {
  return (
    <div className="space-y-4">
      <section aria-labelledby="problem-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <div className="mb-1 flex flex-wrap items-center gap-2">
          <h2 id="problem-heading" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
            Problem
          </h2>
          {principles.length > 0 && (
            <ul aria-label="Target principles" className="ml-auto flex flex-wrap items-center gap-1">
              <li aria-hidden="true" className="text-xs text-slate-500">
                Target principles
              </li>
              {principles.map((p) => (
                <li key={p}>
                  <Chip>{p}</Chip>
                </li>
              ))}
            </ul>
          )}
        </div>
        <RichText text={problem} />
      </section>
      {instructions && (
        <section aria-labelledby="instructions-heading" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="instructions-heading" className="mb-1 text-sm font-semibold tracking-wide text-slate-500 uppercase">
            Instructions given to the tutor
          </h2>
          {/* Long personas would push the replies far down; the box scrolls instead. */}
          <div className="max-h-48 overflow-y-auto pr-1" tabIndex={0} data-scroll-region>
            <RichText text={instructions} />
          </div>
        </section>
      )}
      <ChatHistory history={history} />
    </div>
  );
});
