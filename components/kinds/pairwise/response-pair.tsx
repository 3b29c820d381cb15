import { memo } from 'react';
import { RichText } from '@/components/ui/rich-text';

/**
 * The two candidate next turns, side by side when there is room (a container query, so it also works inside a
 * narrower column) and stacked otherwise; in the review screen's widest layout each card scrolls within half the
 * window's height, so both replies are in view on arrival. Nothing but the text is shown: who wrote a reply is never on screen, and
 * nothing a reply lays out can reach the other card (each card clips what it holds).
 */
export const ResponsePair = memo(function ResponsePair({ responses }: { responses: readonly [string, string] }) {
  return (
    <section aria-label="Responses" className="@container">
      <div className="grid gap-4 @2xl:grid-cols-2">
        {responses.map((text, i) => (
          <article
            key={i}
            data-testid={`response-${i + 1}`}
            aria-labelledby={`response-${i + 1}-heading`}
            className="contain-card min-w-0 rounded-lg border border-slate-300 bg-white shadow-sm"
          >
            <h2
              id={`response-${i + 1}-heading`}
              className="flex items-center gap-2 border-b border-slate-200 px-4 py-2 text-sm font-semibold text-slate-800"
            >
              <span
                aria-hidden="true"
                className="inline-flex size-6 items-center justify-center rounded-full bg-slate-800 text-xs text-white"
              >
                {i + 1}
              </span>
              Response {i + 1}
            </h2>
            {/* Stacked in a review screen's column, each card scrolls on its own so both start in view (globals.css). */}
            <div className="reply-body px-4 py-3" data-scroll-region>
              <RichText text={text} />
            </div>
          </article>
        ))}
      </div>
    </section>
  );
});
