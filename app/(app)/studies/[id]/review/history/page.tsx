import type { Metadata } from 'next';
import { Link } from '@/components/ui/link';
import { notFound } from 'next/navigation';
import { buttonClasses } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { requireUserPage } from '@/lib/auth/guards';
import { DomainError } from '@/lib/server/errors';
import { getSubmissionHistory } from '@/lib/server/review/item-actions';

export const metadata: Metadata = { title: 'My submissions' };

const PAGE = 50;

export default async function HistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ q?: string | string[]; page?: string | string[] }>;
}) {
  const actor = await requireUserPage();
  const studyId = Number((await params).id);
  if (!Number.isInteger(studyId) || studyId < 1) notFound();
  const sp = await searchParams;
  const search = (Array.isArray(sp.q) ? sp.q[0] : sp.q)?.slice(0, 200) ?? '';
  const asked = Array.isArray(sp.page) ? sp.page[0] : sp.page;
  let history;
  try {
    history = getSubmissionHistory(actor, { studyId, search, limit: PAGE, page: asked });
  } catch (e) {
    // A page number out of range (or not a number) is a page that does not exist.
    if (e instanceof DomainError && (e.code === 'not_found' || e.code === 'invalid')) notFound();
    throw e;
  }
  const page = history.page;
  const pages = Math.max(1, Math.ceil(history.total / PAGE));
  const link = (p: number) => `?${new URLSearchParams({ ...(search ? { q: search } : {}), page: String(p) })}`;

  return (
    <div data-testid="my-submissions">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="text-xs tracking-wide text-slate-500 uppercase">My submissions</p>
          <h1 className="text-xl font-semibold">{history.studyName}</h1>
        </div>
        <Link href={`/studies/${studyId}/review`} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          Back to reviewing
        </Link>
      </div>
      <form method="get" role="search" className="mb-4 flex gap-2">
        <label htmlFor="history-search" className="sr-only">
          Search my submissions
        </label>
        <input
          id="history-search"
          name="q"
          type="search"
          defaultValue={search}
          maxLength={200}
          placeholder={history.textHeading === 'Reply' ? 'Item number or words of the reply' : 'Item number or words of the problem'}
          className="h-9 w-80 max-w-full rounded-md border border-slate-300 px-3 text-sm focus:border-accent-500 focus:outline-none"
        />
        <button type="submit" className={buttonClasses({ variant: 'secondary' })}>
          Search
        </button>
        {search ? (
          <Link href="?" className={buttonClasses({ variant: 'ghost' })}>
            Clear
          </Link>
        ) : null}
      </form>
      {history.items.length === 0 ? (
        <EmptyState
          title={search ? `Nothing you submitted matches “${search}”.` : 'You have not submitted anything in this study yet.'}
          description="Your submissions appear here, newest first, as soon as you submit them."
        />
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-500" data-testid="history-count">
            {history.total.toLocaleString('en-US')} submission{history.total === 1 ? '' : 's'}
            {search ? ` matching “${search}”` : ''}, newest first.
          </p>
          <Table caption="My submissions" captionHidden>
            <THead>
              <TR>
                <TH>Item</TH>
                <TH>{history.textHeading}</TH>
                <TH>Submitted</TH>
                <TH>Revision</TH>
              </TR>
            </THead>
            <TBody>
              {history.items.map((s) => (
                <TR key={s.assignmentId} data-testid="history-row">
                  <TD className="whitespace-nowrap">
                    <Link
                      href={`/studies/${studyId}/review/history/${s.assignmentId}`}
                      className="font-medium text-accent-700 hover:underline"
                    >
                      Item {s.position}
                    </Link>
                    {s.itemName ? <span className="block text-xs text-slate-500">{s.itemName}</span> : null}
                  </TD>
                  <TD className="max-w-xl truncate text-slate-600" title={s.problem ?? undefined}>
                    {s.problem ?? '—'}
                  </TD>
                  <TD className="whitespace-nowrap text-slate-600">
                    <time dateTime={s.submittedAt}>{s.submittedAt.replace('T', ' ').slice(0, 16)} UTC</time>
                  </TD>
                  <TD className="tabular-nums">{s.revision}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
          {pages > 1 ? (
            <nav aria-label="Pages" className="mt-3 flex items-center gap-3 text-sm">
              {page > 1 ? <Link href={link(page - 1)}>← Newer</Link> : null}
              <span className="text-slate-500">
                Page {page} of {pages}
              </span>
              {page < pages ? <Link href={link(page + 1)}>Older →</Link> : null}
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}
