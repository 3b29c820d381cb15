import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import { cn } from './cn';

export type CardProps = Omit<ComponentPropsWithRef<'section'>, 'title'> & {
  title?: ReactNode;
  description?: ReactNode;
  /** Buttons or links shown at the right of the header. */
  actions?: ReactNode;
  /** Heading level of the title, to fit the page outline. */
  headingLevel?: 2 | 3 | 4;
  /** Set false for content that brings its own padding, such as a full-width table. */
  padded?: boolean;
};

/** A bordered panel; with a title it becomes a labelled region landmark. */
export function Card({ title, description, actions, headingLevel = 2, padded = true, className, children, ...props }: CardProps) {
  const titleId = useId();
  const Heading = `h${headingLevel}` as const;
  const hasHeader = title != null || actions != null;
  return (
    <section
      aria-labelledby={title != null ? titleId : undefined}
      className={cn('rounded-lg border border-slate-200 bg-white shadow-sm', className)}
      {...props}
    >
      {hasHeader ? (
        <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
          <div className="min-w-0">
            {title != null ? (
              <Heading id={titleId} className="text-base font-semibold text-slate-900">
                {title}
              </Heading>
            ) : null}
            {description != null ? <p className="mt-0.5 text-sm text-slate-500">{description}</p> : null}
          </div>
          {actions != null ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
        </header>
      ) : null}
      <div className={padded ? 'p-4' : undefined}>{children}</div>
    </section>
  );
}
