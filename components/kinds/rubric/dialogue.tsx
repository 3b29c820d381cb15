'use client';

import { memo, useRef } from 'react';
import { useScrolledToEnd } from '@/components/review/scroll-to-end';
import { ChatHistory } from '@/components/review/chat-history';
import { RichText } from '@/components/ui/rich-text';
import { cn } from '@/components/ui/cn';

type Props = {
  problem: string | null;
  history: readonly { role: 'tutor' | 'student'; text: string }[];
  /** True when there is no reply: the dialogue itself is what is judged. */
  underReview: boolean;
};

/**
 * The dialogue a reply answers (or the dialogue under review), in a column that scrolls on its own and opens at its
 * last turn: the turn the reply answers. Rendered once per group of replies: the screen keeps it mounted while the
 * group's replies follow one another, so the reviewer's place in it stays where they left it.
 */
export const RubricDialogue = memo(function RubricDialogue({ problem, history, underReview }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useScrolledToEnd(box, null);
  return (
    <div
      ref={box}
      tabIndex={0}
      data-scroll-region
      data-testid="rubric-dialogue"
      aria-label={underReview ? 'Dialogue under review' : 'Dialogue'}
      className={cn(
        'max-h-[35dvh] space-y-3 overflow-y-auto rounded-lg pr-1 lg:max-h-[calc(100dvh-15rem)]',
        underReview && 'ring-2 ring-emerald-600 ring-offset-2',
      )}
    >
      {problem ? (
        <section aria-labelledby="problem-heading" className="rounded-lg border border-slate-200 bg-white p-3">
          <h2 id="problem-heading" className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            Problem
          </h2>
          <RichText text={problem} />
        </section>
      ) : null}
      <ChatHistory history={history} />
    </div>
  );
});

/** The reply under review, set apart from the dialogue: its own card, its place among the dialogue's replies. */
export const RubricReply = memo(function RubricReply({ text, group }: { text: string; group: { index: number; count: number } | null }) {
  return (
    <article
      aria-labelledby="reply-heading"
      data-testid="rubric-reply"
      className="contain-card min-w-0 rounded-lg border-2 border-emerald-600 bg-white shadow-sm"
    >
      <h2
        id="reply-heading"
        className="flex items-baseline gap-2 border-b border-emerald-100 bg-emerald-50 px-3 py-1.5 text-sm font-semibold text-emerald-900"
      >
        Tutor reply under review
        {group ? (
          <span className="ml-auto text-xs font-normal text-emerald-800" data-testid="group-position">
            reply {group.index} of {group.count} in this dialogue
          </span>
        ) : null}
      </h2>
      <div className="max-h-[30dvh] overflow-y-auto px-3 py-2" tabIndex={0} data-scroll-region>
        {text.trim() === '' ? <p className="text-sm text-slate-500 italic">(The tutor wrote nothing.)</p> : <RichText text={text} />}
      </div>
    </article>
  );
});
