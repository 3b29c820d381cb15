'use client';

import { type ReactNode, useState } from 'react';
import { IntervalBars } from '@/components/charts/interval-bars';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Stat } from '@/components/ui/stat';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import { type ReportJson, reportFilename, reportUrl } from '@/lib/query/analytics';
import { LANDIS_KOCH, coefficientDomain, landisKoch } from './bands';
import { DownloadLink } from './downloads';
import { count, formatInterval, formatValue, reasonText } from './format';
import { IntervalsPanel } from './intervals-panel';
import { AUTO_BOOTSTRAP_MAX_LABELS, INTERVAL_REPLICATES, useReport } from './use-report';
import { Th } from './th';
import { Value } from './value';
import { FoldedEmpty } from './folded';

type Report = ReportJson['agreement'];

const LEVEL: Record<string, string> = { general: 'General', principle: 'Principle', overall: 'Overall' };

export function AgreementDashboard({ studyId, initial }: { studyId: number; initial: Report }) {
  const labels = initial.criteria.reduce((s, c) => s + c.ratings, 0);
  const [bootstrap, setBootstrap] = useState(labels > 0 && labels <= AUTO_BOOTSTRAP_MAX_LABELS ? INTERVAL_REPLICATES : 0);
  const { data, error, retry } = useReport(studyId, 'agreement', { bootstrap }, { params: { bootstrap: 0 }, data: initial });
  const csv = (table: 'criteria' | 'pairs' | 'macro', label: string) => (
    <DownloadLink
      href={reportUrl(studyId, 'agreement', { bootstrap: data.bootstrap.replicates }, { format: 'csv', table })}
      filename={reportFilename(studyId, 'agreement', { table, format: 'csv' })}
    >
      {label}
    </DownloadLink>
  );
  const noLabels = data.criteria.every((c) => c.items === 0);

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-3xl text-sm text-slate-600">
          How much the reviewers agreed with each other <em>before</em> adjudication, on the newest revision of every submitted judgment.
          Percent agreement, Fleiss’ κ and Krippendorff’s α are over all reviewers of an item; Cohen’s κ is for each pair of reviewers that
          shares items.
        </p>
        <DownloadLink
          href={reportUrl(studyId, 'agreement', { bootstrap: data.bootstrap.replicates })}
          filename={reportFilename(studyId, 'agreement', { format: 'json' })}
        >
          Whole report (JSON)
        </DownloadLink>
      </div>

      {noLabels ? (
        <EmptyState
          title="Nothing to measure yet"
          description="No item has two labels on any criterion yet. Agreement appears here once two reviewers have judged the same items."
        />
      ) : (
        <AgreementBody
          data={data}
          csv={csv}
          bootstrap={bootstrap}
          labels={labels}
          error={error}
          retry={retry}
          onCompute={() => setBootstrap(INTERVAL_REPLICATES)}
        />
      )}
    </div>
  );
}

function AgreementBody({
  data,
  csv,
  bootstrap,
  labels,
  error,
  retry,
  onCompute,
}: {
  data: Report;
  csv: (table: 'criteria' | 'pairs' | 'macro', label: string) => ReactNode;
  bootstrap: number;
  labels: number;
  error: string | null;
  retry: () => void;
  onCompute: () => void;
}) {
  const m = data.macro;
  // On a large catalog most criteria may have no item with two labels: they are folded under the table and chart.
  const measured = data.criteria.filter((c) => c.items > 0);
  const empty = data.criteria.filter((c) => c.items === 0).map((c) => c.name);
  const withPairs = data.criteria.filter((c) => c.pairs.length > 0);
  const withoutPairs = data.criteria.length - withPairs.length;
  return (
    <>
      <IntervalsPanel
        requested={bootstrap}
        computed={data.bootstrap}
        labels={labels}
        what="κ, α and the macro means"
        error={error}
        onCompute={onCompute}
        onRetry={retry}
      />

      <Card
        title="Macro average over the criteria"
        description="Unweighted mean over the criteria where the statistic is defined."
        actions={csv('macro', 'CSV')}
      >
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="macro">
          {(
            [
              ['percentAgreement', 'Percent agreement', 'rate'],
              ['fleissKappa', 'Fleiss’ κ', 'coef'],
              ['krippendorffAlphaNominal', 'Krippendorff’s α (nominal)', 'coef'],
              ['krippendorffAlphaOrdinal', 'Krippendorff’s α (ordinal)', 'coef'],
            ] as const
          ).map(([key, label, kind]) => {
            const v = m[key];
            const interval = formatInterval(m.intervals[key], kind);
            return (
              <Stat
                key={key}
                label={label}
                value={v === null ? 'n/a' : formatValue(v, kind)}
                sublabel={
                  v === null
                    ? reasonText(m[`${key}Reason`])
                    : `${interval ? `95 % ${interval} · ` : ''}over ${m.criteriaIncluded[key]} of ${data.criteria.length} criteria${kind === 'coef' ? ` · ${landisKoch(v)}` : ''}`
                }
              />
            );
          })}
        </div>
      </Card>

      <Card title="Per criterion" actions={csv('criteria', 'CSV')} padded={false}>
        <Table
          caption="Agreement per criterion, with 95 % intervals"
          captionHidden
          wrapperClassName="rounded-none border-0"
          data-testid="criteria-table"
        >
          <THead>
            <TR>
              <Th>Criterion</Th>
              <Th numeric>Items</Th>
              <Th numeric>Labels</Th>
              <Th numeric>Percent agreement</Th>
              <Th numeric>Fleiss’ κ</Th>
              <Th numeric>α nominal</Th>
              <Th numeric>α ordinal</Th>
            </TR>
          </THead>
          <TBody>
            {measured.map((c) => (
              <TR key={c.criterion}>
                <TD>
                  <span className="font-medium">{c.name}</span>
                  {c.level !== 'overall' ? (
                    <span className="block text-xs text-slate-500">
                      {LEVEL[c.level]}
                      {c.principle ? ` · ${c.principle}` : ''}
                    </span>
                  ) : null}
                </TD>
                <TD numeric>{count(c.items)}</TD>
                <TD numeric>{count(c.ratings)}</TD>
                <TD numeric>
                  <Value value={c.percentAgreement} reason={c.percentAgreementReason} kind="rate" interval={c.intervals.percentAgreement} />
                </TD>
                <TD numeric>
                  <Value value={c.fleissKappa} reason={c.fleissKappaReason} kind="coef" interval={c.intervals.fleissKappa} />
                </TD>
                <TD numeric>
                  <Value
                    value={c.krippendorffAlphaNominal}
                    reason={c.krippendorffAlphaNominalReason}
                    kind="coef"
                    interval={c.intervals.krippendorffAlphaNominal}
                  />
                </TD>
                <TD numeric>
                  <Value
                    value={c.krippendorffAlphaOrdinal}
                    reason={c.krippendorffAlphaOrdinalReason}
                    kind="coef"
                    interval={c.intervals.krippendorffAlphaOrdinal}
                  />
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
        <FoldedEmpty names={empty} noun={['criterion', 'criteria']} why="no item has two labels on them" />
        <p className="px-4 py-2 text-xs text-slate-500">
          Items: items with at least two labels on the criterion. Percent agreement is the mean share of agreeing pairs of labels per item.
          Ordinal α counts a lose/win disagreement as worse than one involving a tie (lose &lt; tie &lt; win).
        </p>
      </Card>

      <Card title="Krippendorff’s α (ordinal) per criterion" description="Dots are estimates, whiskers 95 % intervals.">
        <p className="mb-2 text-sm text-slate-600">
          Shaded bands: the Landis &amp; Koch (1977) benchmarks for κ-like values — below 0 poor, 0–0.2 slight, 0.2–0.4 fair, 0.4–0.6
          moderate, 0.6–0.8 substantial, 0.8–1 almost perfect. Krippendorff’s own rule is stricter: α ≥ 0.800 reliable, 0.667–0.800 for
          tentative conclusions only.
        </p>
        <IntervalBars
          ariaLabel="Krippendorff’s alpha (ordinal) per criterion with 95 % intervals"
          digits={3}
          domain={coefficientDomain(measured.flatMap((c) => [c.krippendorffAlphaOrdinal, c.intervals.krippendorffAlphaOrdinal.lower]))}
          bands={LANDIS_KOCH}
          rows={measured.map((c) => ({
            label: c.name,
            value: c.krippendorffAlphaOrdinal,
            lo: c.intervals.krippendorffAlphaOrdinal.lower,
            hi: c.intervals.krippendorffAlphaOrdinal.upper,
            note: c.krippendorffAlphaOrdinal === null ? reasonText(c.krippendorffAlphaOrdinalReason) : undefined,
          }))}
        />
      </Card>

      <Card
        title="Cohen’s κ per pair of reviewers"
        description="Every pair that labelled the same items; weighted κ gives partial credit by distance on lose < tie < win."
        actions={csv('pairs', 'CSV')}
        padded={false}
      >
        <Table
          caption="Cohen’s kappa of each pair of reviewers, per criterion"
          captionHidden
          wrapperClassName="rounded-none border-0"
          data-testid="pairs-table"
        >
          <THead>
            <TR>
              <Th>Reviewers</Th>
              <Th numeric>Shared items</Th>
              <Th numeric>Percent agreement</Th>
              <Th numeric>κ</Th>
              <Th numeric>κ linear</Th>
              <Th numeric>κ quadratic</Th>
            </TR>
          </THead>
          {withPairs.map((c) => (
            <TBody key={c.criterion}>
              <TR className="bg-slate-50">
                <Th scope="colgroup" colSpan={6}>
                  {c.name}
                </Th>
              </TR>
              {c.pairs.map((p) => (
                <TR key={p.annotators.join('\u0000')} data-testid="pair-row">
                  <TD>
                    {p.annotators[0]} · {p.annotators[1]}
                  </TD>
                  <TD numeric>{count(p.items)}</TD>
                  <TD numeric>
                    <Value
                      value={p.percentAgreement}
                      reason={p.percentAgreementReason}
                      kind="rate"
                      interval={p.intervals.percentAgreement}
                    />
                  </TD>
                  <TD numeric>
                    <Value
                      value={p.cohenKappa}
                      reason={p.cohenKappaReason}
                      kind="coef"
                      interval={p.intervals.cohenKappa}
                      testId="pair-kappa"
                    />
                  </TD>
                  <TD numeric>
                    <Value
                      value={p.cohenKappaLinear}
                      reason={p.cohenKappaLinearReason}
                      kind="coef"
                      interval={p.intervals.cohenKappaLinear}
                    />
                  </TD>
                  <TD numeric>
                    <Value
                      value={p.cohenKappaQuadratic}
                      reason={p.cohenKappaQuadraticReason}
                      kind="coef"
                      interval={p.intervals.cohenKappaQuadratic}
                    />
                  </TD>
                </TR>
              ))}
            </TBody>
          ))}
        </Table>
        {withoutPairs > 0 ? (
          <p className="px-4 py-2 text-xs text-slate-500">{withoutPairs} criterion/criteria have no two reviewers sharing an item yet.</p>
        ) : null}
      </Card>
    </>
  );
}
