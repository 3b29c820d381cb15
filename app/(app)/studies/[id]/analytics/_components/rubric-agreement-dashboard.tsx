'use client';

import { useState } from 'react';
import { EmptyState } from '@/components/ui/empty-state';
import type { ReportJson } from '@/lib/query/analytics';
import { CsvLink, JsonLink } from './downloads';
import { count } from './format';
import { IntervalsPanel } from './intervals-panel';
import { type Column, StatTable, TableCard, metric } from './stat-table';
import { AUTO_BOOTSTRAP_MAX_LABELS, INTERVAL_REPLICATES, useReport } from './use-report';

/*
 * Agreement of the reviewers of a rubric study (one reply labelled on several dimensions), dimension by dimension and
 * per pair of reviewers. Reads the same JSON as `concord report agreement --json` and offers its tables as CSV.
 */

type Report = ReportJson['rubric-agreement'];
type Criterion = Report['criteria'][number];
type Pair = Criterion['pairs'][number] & { dimension: string; key: string };

const CRITERIA: Column<Criterion>[] = [
  {
    head: 'Dimension',
    cell: (c) => (
      <>
        <span className="font-medium">{c.name}</span>
        <span className="block text-xs text-slate-500">{c.labels.join(' < ')}</span>
      </>
    ),
  },
  { head: 'Replies', numeric: true, cell: (c) => count(c.items) },
  metric('Agreement', 'rate', 'percentAgreement'),
  metric('Fleiss κ', 'coef', 'fleissKappa'),
  metric('α nominal', 'coef', 'krippendorffAlphaNominal'),
  metric('α ordinal', 'coef', 'krippendorffAlphaOrdinal'),
];

const PAIRS: Column<Pair>[] = [
  { head: 'Dimension', cell: (p) => p.dimension },
  { head: 'Reviewers', cell: (p) => p.annotators.join(' × ') },
  { head: 'Replies', numeric: true, cell: (p) => count(p.items) },
  metric('κ', 'coef', 'cohenKappa'),
  metric('κ linear', 'coef', 'cohenKappaLinear'),
  metric('κ quadratic', 'coef', 'cohenKappaQuadratic'),
];

export function RubricAgreementDashboard({ studyId, initial }: { studyId: number; initial: Report }) {
  const labels = initial.criteria.reduce((s, c) => s + c.ratings, 0);
  const [bootstrap, setBootstrap] = useState(labels > 0 && labels <= AUTO_BOOTSTRAP_MAX_LABELS ? INTERVAL_REPLICATES : 0);
  const { data, error, retry } = useReport(studyId, 'rubric-agreement', { bootstrap }, { params: { bootstrap: 0 }, data: initial });
  const params = { bootstrap: data.bootstrap.replicates };
  if (labels === 0)
    return <EmptyState title="No labels yet" description="Agreement appears once two reviewers have labelled the same reply." />;
  const pairs: Pair[] = data.criteria.flatMap((c) =>
    c.pairs.map((p) => ({ ...p, dimension: c.name, key: `${c.criterion}-${p.annotators.join('-')}` })),
  );
  return (
    <div className="space-y-5">
      <div className="flex justify-end">
        <JsonLink studyId={studyId} report="rubric-agreement" params={params} />
      </div>
      <IntervalsPanel
        requested={bootstrap}
        computed={data.bootstrap}
        labels={labels}
        what="κ and α"
        error={error}
        onCompute={() => setBootstrap(INTERVAL_REPLICATES)}
        onRetry={retry}
      />
      <TableCard
        title="Agreement per dimension"
        actions={<CsvLink studyId={studyId} report="rubric-agreement" params={params} table="criteria" />}
        explain={
          <>
            How often the reviewers gave a reply the same label before adjudication, dimension by dimension. Fleiss’ κ and Krippendorff’s α
            take away the agreement expected by chance; the ordinal α counts a near miss (“No” against “To some extent”) as less of a
            disagreement than a far one.
          </>
        }
      >
        <StatTable
          caption="Agreement per dimension"
          testId="rubric-agreement-table"
          columns={CRITERIA}
          rows={data.criteria}
          rowKey={(c) => c.criterion}
        />
      </TableCard>
      <TableCard
        title="Reviewer pairs"
        actions={<CsvLink studyId={studyId} report="rubric-agreement" params={params} table="pairs" />}
        explain={
          <>Cohen’s κ for every two reviewers who labelled the same replies; the weighted κ gives partial credit for neighbouring labels.</>
        }
      >
        <StatTable caption="Cohen’s κ per reviewer pair" columns={PAIRS} rows={pairs} rowKey={(p) => p.key} />
      </TableCard>
    </div>
  );
}
