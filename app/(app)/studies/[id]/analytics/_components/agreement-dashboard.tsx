'use client';

import { useState } from 'react';
import { IntervalBars } from '@/components/charts/interval-bars';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Stat } from '@/components/ui/stat';
import type { ReportJson } from '@/lib/query/analytics';
import { type AgreementShape, REPORT_SPECS, readStat } from '@/lib/server/analytics/dto';
import { LANDIS_KOCH, coefficientDomain, landisKoch } from './bands';
import { CsvLink, JsonLink } from './downloads';
import { FoldedEmpty } from './folded';
import { formatInterval, formatValue, reasonText } from './format';
import { IntervalsPanel } from './intervals-panel';
import { StatTable, TableCard, specColumns } from './stat-table';
import { AUTO_BOOTSTRAP_MAX_LABELS, INTERVAL_REPLICATES, useReport } from './use-report';

/*
 * Agreement of the reviewers before adjudication, for every kind of study: its tables are the report's column specs
 * (lib/server/analytics/dto/agreement-tables.ts) with what the kind says about its criteria, the same specs the CSV
 * downloads and `concord report agreement` read. Reads the same JSON as `concord report agreement --json`.
 */

export type AgreementReportName = 'agreement' | 'rubric-agreement';

export function AgreementDashboard<R extends AgreementReportName>({
  studyId,
  report,
  initial,
}: {
  studyId: number;
  report: R;
  initial: ReportJson[R];
}) {
  const labels = initial.criteria.reduce((s, c) => s + c.ratings, 0);
  const [bootstrap, setBootstrap] = useState(labels > 0 && labels <= AUTO_BOOTSTRAP_MAX_LABELS ? INTERVAL_REPLICATES : 0);
  const { data, error, retry } = useReport(studyId, report, { bootstrap }, { params: { bootstrap: 0 }, data: initial });
  const params = { bootstrap: data.bootstrap.replicates };
  const tables = REPORT_SPECS[report];
  // The specs read either form of a statistic: the JSON's number-and-reason as the DTO's StatDto.
  const shape = data as unknown as AgreementShape;
  const noun = tables.criteria.title.replace(/^Agreement per /, '');
  const nouns = tables.macro.title.replace(/^Macro average over the /, '');
  // On a large catalog most criteria may have no item with two labels: they are folded under the table and chart.
  const measured = tables.criteria.rows(shape).filter((c) => c.items > 0);
  const empty = data.criteria.filter((c) => c.items === 0).map((c) => c.name);
  const pairs = tables.pairs.rows(shape);
  const withoutPairs = data.criteria.filter((c) => c.pairs.length === 0).length;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-3xl text-sm text-slate-600">
          How much the reviewers agreed with each other <em>before</em> adjudication, on the newest revision of every submitted label.
          Percent agreement, Fleiss’ κ and Krippendorff’s α are over all reviewers of an item; Cohen’s κ is for each pair of reviewers that
          shares items.
        </p>
        <JsonLink studyId={studyId} report={report} params={params} />
      </div>

      {measured.length === 0 ? (
        <EmptyState
          title="Nothing to measure yet"
          description={`No item has two labels on any ${noun} yet. Agreement appears here once two reviewers have labelled the same items.`}
        />
      ) : (
        <>
          <IntervalsPanel
            requested={bootstrap}
            computed={data.bootstrap}
            labels={labels}
            what="κ, α and the macro means"
            error={error}
            onCompute={() => setBootstrap(INTERVAL_REPLICATES)}
            onRetry={retry}
          />

          <Card
            title={tables.macro.title}
            description={`Unweighted mean over the ${nouns} where the statistic is defined.`}
            actions={<CsvLink studyId={studyId} report={report} params={params} table="macro" />}
          >
            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="macro">
              {tables.macro.rows(shape).map((m) => {
                const s = readStat(m, 'value');
                const kind = m.statistic === 'percent_agreement' ? 'rate' : 'coef';
                const interval = s.interval ? formatInterval(s.interval, kind) : null;
                return (
                  <Stat
                    key={m.statistic}
                    label={m.header}
                    value={s.value === null ? 'n/a' : formatValue(s.value, kind)}
                    sublabel={
                      s.value === null
                        ? reasonText(s.reason)
                        : `${interval ? `95 % ${interval} · ` : ''}over ${m.included} of ${data.criteria.length} ${nouns}${kind === 'coef' ? ` · ${landisKoch(s.value)}` : ''}`
                    }
                  />
                );
              })}
            </div>
          </Card>

          <TableCard
            title={tables.criteria.title}
            actions={<CsvLink studyId={studyId} report={report} params={params} table="criteria" />}
          >
            <StatTable
              caption={`${tables.criteria.title}, with 95 % intervals`}
              testId="criteria-table"
              wrapperClassName="rounded-none border-0"
              columns={specColumns(tables.criteria.columns)}
              rows={measured}
              rowKey={tables.criteria.rowKey}
            />
            <FoldedEmpty names={empty} noun={[noun, nouns]} why="no item has two labels on them" />
            <p className="px-4 py-2 text-xs text-slate-500">
              Items: items with at least two labels on the {noun}. Percent agreement is the mean share of agreeing pairs of labels per item.
              Ordinal α counts a disagreement between labels far apart in their order as worse than one between neighbours.
            </p>
          </TableCard>

          <Card title={`Krippendorff’s α (ordinal) per ${noun}`} description="Dots are estimates, whiskers 95 % intervals.">
            <p className="mb-2 text-sm text-slate-600">
              Shaded bands: the Landis &amp; Koch (1977) benchmarks for κ-like values — below 0 poor, 0–0.2 slight, 0.2–0.4 fair, 0.4–0.6
              moderate, 0.6–0.8 substantial, 0.8–1 almost perfect. Krippendorff’s own rule is stricter: α ≥ 0.800 reliable, 0.667–0.800 for
              tentative conclusions only.
            </p>
            <IntervalBars
              ariaLabel={`Krippendorff’s alpha (ordinal) per ${noun} with 95 % intervals`}
              digits={3}
              domain={coefficientDomain(measured.flatMap((c) => [readStat(c, 'krippendorffAlphaOrdinal').value, c.intervals.krippendorffAlphaOrdinal.lower]))}
              bands={LANDIS_KOCH}
              rows={measured.map((c) => {
                const s = readStat(c, 'krippendorffAlphaOrdinal');
                return {
                  label: c.name,
                  value: s.value,
                  lo: c.intervals.krippendorffAlphaOrdinal.lower,
                  hi: c.intervals.krippendorffAlphaOrdinal.upper,
                  note: s.value === null ? reasonText(s.reason) : undefined,
                };
              })}
            />
          </Card>

          <TableCard
            title={tables.pairs.title}
            actions={<CsvLink studyId={studyId} report={report} params={params} table="pairs" />}
            explain={<>Every pair that labelled the same items; weighted κ gives partial credit by the distance between the labels in their order.</>}
          >
            <StatTable
              caption={`Cohen’s kappa of each pair of reviewers, per ${noun}`}
              testId="pairs-table"
              wrapperClassName="rounded-none border-0"
              columns={specColumns(tables.pairs.columns)}
              rows={pairs}
              rowKey={tables.pairs.rowKey}
              rowTestId="pair-row"
              groupBy={{ key: (p) => p.criterion, label: (p) => p.criterionName }}
            />
            {withoutPairs > 0 ? (
              <p className="px-4 py-2 text-xs text-slate-500">
                {withoutPairs} {withoutPairs === 1 ? noun : nouns} have no two reviewers sharing an item yet.
              </p>
            ) : null}
          </TableCard>
        </>
      )}
    </div>
  );
}
