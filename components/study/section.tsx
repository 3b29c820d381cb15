export const money = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');
export const exportLink = (studyId: number, what: string, format: string) => `/api/studies/${studyId}/export?what=${what}&format=${format}`;

export function Section({ title, children, id }: { title: string; children: React.ReactNode; id?: string }) {
  const headingId = id ?? `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="mb-3 font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
