import { memo } from 'react';
import { RichText } from '@/components/ui/rich-text';
import { cn } from '@/components/ui/cn';

export type Turn = { role: 'tutor' | 'student'; text: string };

/** The dialogue so far as chat bubbles: the tutor on the left, the student on the right, each labelled. */
export const ChatHistory = memo(function ChatHistory({ history }: { history: readonly Turn[] }) {
  return (
    <section aria-labelledby="dialogue-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="dialogue-heading" className="mb-3 text-sm font-semibold tracking-wide text-slate-500 uppercase">
        Dialogue so far
      </h2>
      {history.length === 0 ? (
        <p className="text-sm text-slate-500">No earlier turns: the responses below open the conversation.</p>
      ) : (
        <ol className="space-y-3">
          {history.map((turn, i) => {
            const tutor = turn.role === 'tutor';
            return (
              <li key={i} className={cn('flex', tutor ? 'justify-start' : 'justify-end')}>
                <div
                  className={cn(
                    'max-w-[85%] min-w-0 rounded-2xl px-3 py-2 ring-1 ring-inset',
                    tutor ? 'rounded-tl-sm bg-accent-50 ring-accent-100' : 'rounded-tr-sm bg-amber-50 ring-amber-200',
                  )}
                >
                  <p className={cn('text-xs font-semibold', tutor ? 'text-accent-700' : 'text-right text-amber-800')}>
                    {tutor ? 'Tutor' : 'Student'}
                  </p>
                  <RichText text={turn.text} />
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
});
