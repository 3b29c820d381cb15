'use client';

import { useState } from 'react';
import { type ReportJson, type ReportParams, reportFilename, reportUrl } from '@/lib/query/analytics';
import type { ReportTable } from '@/lib/server/analytics/dto';
import { DownloadLink } from './downloads';
import { type CriterionInfo, LEADERBOARD_PARTS, type LeaderboardReportName } from './leaderboard-parts';
import { useOptionsInUrl, useReport } from './use-report';

/*
 * The leaderboard of a study, for every kind of study: how each model (a pairwise study's replies, a rubric study's
 * tutors) scores by the ground truth and by every judge run, and the judges' scores corrected by the settled labels.
 * What differs by report — its options and their controls, its cards — is its part in leaderboard-parts.tsx; this
 * draws the header, keeps the options in the address and offers the downloads. Reads the same JSON as
 * `concord report leaderboard --json`.
 */

export type { CriterionInfo, LeaderboardReportName };

export function LeaderboardDashboard<R extends LeaderboardReportName>({
  studyId,
  report,
  initial,
  criteria,
}: {
  studyId: number;
  report: R;
  initial: ReportJson[R];
  criteria: CriterionInfo[];
}) {
  const part = LEADERBOARD_PARTS[report];
  const [params, setParams] = useState<ReportParams[R]>(() => part.start(initial));
  const [lenient, setLenient] = useState(false);
  const { data, fetching, error, retry } = useReport(studyId, report, params, { params: part.params(initial), data: initial });
  useOptionsInUrl(part.inUrl(params));
  // The links download what is shown, which may lag behind what was just asked for.
  const shown = part.params(data);
  const file = part.file(data);
  const csv = (table: ReportTable<R>) => (
    <DownloadLink
      href={reportUrl(studyId, report, shown, { format: 'csv', table })}
      filename={reportFilename(studyId, report, { ...file, table, format: 'csv' })}
    >
      CSV
    </DownloadLink>
  );
  const view = { data, params, set: setParams, lenient, setLenient };

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <part.Controls {...view} />
        <div className="flex items-center gap-3">
          {part.status({ data, params, fetching })}
          <DownloadLink href={reportUrl(studyId, report, shown)} filename={reportFilename(studyId, report, { ...file, format: 'json' })}>
            Whole report (JSON)
          </DownloadLink>
        </div>
      </div>
      <part.Own {...view} studyId={studyId} criteria={criteria} csv={csv} fetching={fetching} error={error} retry={retry} />
    </div>
  );
}
