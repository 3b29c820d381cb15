import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import type { ReportName, ReportTable } from '@/lib/server/analytics/dto';
import { type ReportParams, reportFilename, reportUrl } from '@/lib/query/analytics';

/** A link that saves a report file (CSV table or JSON report) under a readable name. */
export function DownloadLink({
  href,
  filename,
  children,
  className,
}: {
  href: string;
  filename: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <a
      href={href}
      download={filename}
      className={cn(
        'inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50',
        className,
      )}
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.5">
        <path d="M8 2v8m0 0L5 7m3 3 3-3M3 13h10" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {children}
    </a>
  );
}

type ReportLinkProps<R extends ReportName> = {
  studyId: number;
  report: R;
  params: ReportParams[R];
  /** The judge run the report is about, named in the file. */
  name?: string;
};

/** One table of a report as CSV, with the parameters the dashboard shows. */
export function CsvLink<R extends ReportName>({ studyId, report, params, table, name }: ReportLinkProps<R> & { table: ReportTable<R> }) {
  return (
    <DownloadLink
      href={reportUrl(studyId, report, params, { format: 'csv', table })}
      filename={reportFilename(studyId, report, { judge: name, table, format: 'csv' })}
    >
      CSV
    </DownloadLink>
  );
}

/** The whole report as JSON (what `concord report … --json` prints), with the parameters the dashboard shows. */
export function JsonLink<R extends ReportName>({ studyId, report, params, name }: ReportLinkProps<R>) {
  return (
    <DownloadLink href={reportUrl(studyId, report, params)} filename={reportFilename(studyId, report, { judge: name, format: 'json' })}>
      Whole report (JSON)
    </DownloadLink>
  );
}
