'use client';

import { useState } from 'react';
import { Card } from '@/components/ui/card';
import type { ReportTable } from '@/lib/server/analytics/dto';
import type { ReportJson, ReportParams } from '@/lib/query/analytics';
import { BIAS_PARTS, type BiasReportName } from './bias-parts';
import { CalibrationCard } from './calibration-card';
import { CsvLink, JsonLink } from './downloads';
import { reasonText } from './format';
import { LengthBiasTable } from './length-bias-table';
import { useOptionsInUrl, useReport } from './use-report';

/*
 * The biases of a study's graders, for every kind of study: the report's own tables (a pairwise study's position
 * bias, a rubric study's leniency), the length bias of the ground truth and of every judge run, and the calibration
 * of the judges. What differs by report — its options, its own cards, how its length measure reads — is its part in
 * bias-parts.tsx. Reads the same JSON as `concord report bias --json`.
 */

export type { BiasReportName };

export function BiasDashboard<R extends BiasReportName>({
  studyId,
  report,
  initial,
}: {
  studyId: number;
  report: R;
  initial: ReportJson[R];
}) {
  const part = BIAS_PARTS[report];
  const [params, setParams] = useState<ReportParams[R]>(() => part.params(initial));
  const { data, fetching, error, retry } = useReport(studyId, report, params, { params: part.params(initial), data: initial });
  useOptionsInUrl(part.inUrl(params));
  // The links download what is shown, which may lag behind what was just asked for.
  const shown = part.params(data);
  const csv = (table: ReportTable<R>) => <CsvLink studyId={studyId} report={report} params={shown} table={table} />;
  const length = part.length;
  const lengthReason = length.reason(data);

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-end gap-4">{part.controls({ data, params, set: setParams })}</div>
        <div className="flex items-center gap-3">
          {fetching ? (
            <p role="status" className="text-sm text-slate-600">
              Computing…
            </p>
          ) : null}
          <JsonLink studyId={studyId} report={report} params={shown} />
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-rose-700">
          The report could not be loaded: {error}{' '}
          <button type="button" className="underline" onClick={retry}>
            Try again
          </button>
        </p>
      ) : null}

      {part.own({ data, csv })}

      <Card title="Length bias" description={length.question} actions={csv('length' as ReportTable<R>)} padded={false}>
        <p className="px-4 pt-3 text-sm text-slate-600">{length.explain}</p>
        {lengthReason ? (
          <p className="px-4 py-3 text-sm text-slate-500" data-testid="length-empty">
            Not available: {reasonText(lengthReason)} — {length.whyEmpty}
          </p>
        ) : (
          <LengthBiasTable
            itemsLabel={length.itemsLabel}
            scopeLabel={length.scopeLabel}
            unit={length.unit}
            fifths={length.fifths}
            rows={length.rows(data)}
          />
        )}
      </Card>

      <CalibrationCard data={data} csv={(t) => csv(t as ReportTable<R>)} />
    </div>
  );
}
