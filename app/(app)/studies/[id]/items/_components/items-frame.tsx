import Link from 'next/link';

/** The link to one page of a study's items list, keeping the filters that are set. */
export function itemsPageHref(studyId: number, filters: Record<string, string | undefined>, page: number): string {
  const u = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) u.set(key, value);
  u.set('page', String(page));
  return `/studies/${studyId}/items?${u}`;
}

/** The back link to the study and the list's title, shared by the flow and pairwise lists. */
export function ItemsHeader({ studyId, studyName, title }: { studyId: number; studyName: string; title: string }) {
  return (
    <>
      <p className="text-sm">
        <Link href={`/studies/${studyId}`} className="text-accent-700 hover:underline">
          ← {studyName}
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{title}</h1>
    </>
  );
}

/** Previous / next links under a list paged on the server. */
export function Pager({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  return (
    <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
      {page > 1 && <Link href={href(page - 1)}>← Previous</Link>}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages && <Link href={href(page + 1)}>Next →</Link>}
    </nav>
  );
}

/** The "only flagged items" filter of the pairwise and rubric lists (`flagged=1` in the URL). */
export function FlaggedFilter({ checked }: { checked: boolean }) {
  return (
    <label className="flex items-center gap-2 self-center pt-5">
      <input type="checkbox" name="flagged" value="1" defaultChecked={checked} className="size-4" />
      <span className="text-slate-600">Only flagged by a reviewer</span>
    </label>
  );
}
