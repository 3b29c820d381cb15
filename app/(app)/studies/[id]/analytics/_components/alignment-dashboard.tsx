'use client';

import { useState } from 'react';
import { Heatmap } from '@/components/charts/heatmap';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Stat } from '@/components/ui/stat';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import type { ReportTable } from '@/lib/server/analytics/dto';
import { type Flat, type ReportJson, reportFilename, reportUrl } from '@/lib/query/analytics';
import type { AlignmentSummaryDto, JudgeRunDto, VoteAgreementDto } from '@/lib/server/analytics/dto';
import { CertifyCard } from './certify-card';
import { CertifyQuestions } from './certify-questions';
import { DownloadLink } from './downloads';
import { LABEL_TEXT, count, formatInterval, formatValue, reasonText } from './format';
import { IntervalsPanel } from './intervals-panel';
import { JudgeSelect } from './judge-select';
import { AUTO_BOOTSTRAP_MAX_LABELS, INTERVAL_REPLICATES, useOptionsInUrl, useReport } from './use-report';
import { Th } from './th';
import { Value } from './value';
import { FoldedEmpty } from './folded';

type Report = ReportJson['alignment'];
type Summary = Flat<AlignmentSummaryDto>;
type Votes = Flat<VoteAgreementDto>;

const RULE: Record<string, string> = {
  adjudicated: 'the reviewers’ label where they agree, else the adjudicator’s',
  majority: 'the majority of the reviewers’ labels, else the adjudicator’s',
  dawid_skene: 'the adjudicator’s label where there is one, else the Dawid–Skene model’s most probable label',
  mace: 'the adjudicator’s label where there is one, else the MACE model’s most probable label',
};

export function AlignmentDashboard({ studyId, runs, initial }: { studyId: number; runs: JudgeRunDto[]; initial: Report }) {
  const [judge, setJudge] = useState(initial.judge);
  const labels = initial.overall.n;
  const [bootstrap, setBootstrap] = useState(labels > 0 && labels <= AUTO_BOOTSTRAP_MAX_LABELS ? INTERVAL_REPLICATES : 0);
  const { data, fetching, error, retry } = useReport(
    studyId,
    'alignment',
    { judge, bootstrap },
    { params: { judge: initial.judge, bootstrap: 0 }, data: initial },
  );
  useOptionsInUrl({ judge });
  const stale = data.judge !== judge;
  const params = { judge: data.judge, bootstrap: data.bootstrap.replicates };
  const csv = (table: ReportTable<'alignment'>) => (
    <DownloadLink
      href={reportUrl(studyId, 'alignment', params, { format: 'csv', table })}
      filename={reportFilename(studyId, 'alignment', { judge: data.judge, table, format: 'csv' })}
    >
      CSV
    </DownloadLink>
  );
  const o = data.overall;
  const pc = data.positionConsistency;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-4">
          <JudgeSelect runs={runs} value={judge} onChange={setJudge} />
          {stale && fetching ? (
            <p role="status" className="pb-2 text-sm text-slate-600">
              Loading {judge}…
            </p>
          ) : null}
        </div>
        <DownloadLink
          href={reportUrl(studyId, 'alignment', params)}
          filename={reportFilename(studyId, 'alignment', { judge: data.judge, format: 'json' })}
        >
          Whole report (JSON)
        </DownloadLink>
      </div>

      <IntervalsPanel
        requested={bootstrap}
        computed={data.bootstrap}
        labels={labels}
        what="Cohen’s κ"
        error={error}
        onCompute={() => setBootstrap(INTERVAL_REPLICATES)}
        onRetry={retry}
      />

      <div className={stale ? 'space-y-5 opacity-50' : 'space-y-5'} aria-busy={stale || undefined}>
        <Card
          title={`${data.judge} against the ground truth`}
          description={`Ground truth: ${RULE[data.groundTruthRule] ?? data.groundTruthRule} (rule “${data.groundTruthRule}”).`}
          actions={csv('overall')}
        >
          <p className="mb-3 text-sm text-slate-600">
            Alignment rate (KMP-Bench): the share of ground-truth labels, over all criteria, that the judge matched. Without ties: only
            labels where neither the ground truth nor the judge says tie. Position consistency: the same verdict with the replies shown in
            both orders.
          </p>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="alignment-overall">
            <Stat
              label="Alignment rate"
              value={<span data-testid="alignment-rate">{o.alignmentRate === null ? 'n/a' : formatValue(o.alignmentRate, 'rate')}</span>}
              sublabel={
                o.alignmentRate === null
                  ? reasonText(o.alignmentRateReason)
                  : `95 % ${formatInterval(o.intervals.alignmentRate, 'rate')} · ${count(o.agree)} of ${count(o.n)} labels`
              }
            />
            <Stat
              label="Without ties"
              value={o.alignmentRateNoTies === null ? 'n/a' : formatValue(o.alignmentRateNoTies, 'rate')}
              sublabel={
                o.alignmentRateNoTies === null
                  ? reasonText(o.alignmentRateNoTiesReason)
                  : `95 % ${formatInterval(o.intervals.alignmentRateNoTies, 'rate')} · ${count(o.nNoTies)} labels where neither says tie`
              }
            />
            <Stat
              label="Cohen’s κ, judge vs ground truth"
              value={o.cohenKappa === null ? 'n/a' : formatValue(o.cohenKappa, 'coef')}
              sublabel={
                o.cohenKappa === null
                  ? reasonText(o.cohenKappaReason)
                  : [
                      formatInterval(o.intervals.cohenKappa, 'coef')
                        ? `95 % ${formatInterval(o.intervals.cohenKappa, 'coef')}`
                        : 'interval not computed yet',
                      o.cohenKappaLinear !== null ? `linear ${formatValue(o.cohenKappaLinear, 'coef')}` : null,
                      o.cohenKappaQuadratic !== null ? `quadratic ${formatValue(o.cohenKappaQuadratic, 'coef')}` : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')
              }
            />
            <Stat
              label="Position consistency"
              value={pc === null ? 'n/a' : pc.rate === null ? 'n/a' : formatValue(pc.rate, 'rate')}
              sublabel={
                pc === null
                  ? reasonText(data.positionConsistencyReason)
                  : pc.rate === null
                    ? reasonText(pc.rateReason)
                    : `95 % ${formatInterval(pc.interval, 'rate')} · same verdict in both orders on ${count(pc.consistent)} of ${count(pc.n)}`
              }
            />
          </div>
          <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4" data-testid="alignment-facts">
            <Fact
              label="Ground-truth labels"
              value={count(data.groundTruth.labels)}
              note={
                data.groundTruth.incompleteItems
                  ? `${count(data.groundTruth.incompleteItems)} item(s) not settled yet, left out`
                  : 'every item settled'
              }
            />
            <Fact label="Compared with a verdict" value={count(o.n)} />
            <Fact label="Unjudged labels" value={count(data.unjudged)} note="ground-truth labels the judge gave no verdict on" />
            <Fact
              label="Unreadable verdicts"
              value={count(data.unparsedVerdicts)}
              note="records whose verdict could not be read at import; left out, never guessed"
            />
          </dl>
        </Card>

        <CertifyQuestions />
        <CertifyCard studyId={studyId} judge={data.judge} criteria={data.byCriterion.map((c) => ({ id: c.criterion, name: c.name }))} />

        {o.n === 0 ? (
          <EmptyState
            title="Nothing to compare yet"
            description={`No ground-truth label has a verdict of ${data.judge} yet: items are compared once their reviews are settled (and adjudicated where the reviewers disagree).`}
          />
        ) : (
          <>
            <div className="grid gap-5 lg:grid-cols-2">
              <Card
                title="Confusion matrix"
                description="All criteria pooled; rows ground truth, columns the judge."
                actions={csv('confusion')}
              >
                <Heatmap
                  rowLabels={data.labelSet.map((l) => LABEL_TEXT[l] ?? l)}
                  colLabels={data.labelSet.map((l) => LABEL_TEXT[l] ?? l)}
                  values={o.confusion}
                  rowTitle="Ground truth"
                  colTitle="Judge"
                />
              </Card>

              <Card
                title="The judge beside the reviewers"
                description="Human vs human is the ceiling."
                actions={csv('annotators')}
                padded={false}
              >
                <p className="px-4 pt-3 text-sm text-slate-600">
                  Each reviewer’s own labels before adjudication, one comparison per vote (MT-Bench), on the items and criteria the judge
                  labelled.
                </p>
                <Table
                  caption="Judge against each reviewer, and reviewers against each other"
                  captionHidden
                  wrapperClassName="rounded-none border-0"
                  data-testid="annotators-table"
                >
                  <THead>
                    <TR>
                      <Th>Comparison</Th>
                      <Th numeric>Votes</Th>
                      <Th numeric>Agreement</Th>
                      <Th numeric>Without ties</Th>
                    </TR>
                  </THead>
                  <TBody>
                    {data.judgeVsAnnotators.map((a) => (
                      <VoteRow key={a.annotator} label={`Judge vs ${a.annotator}`} v={a} />
                    ))}
                    <VoteRow label="Judge vs all human votes" v={data.judgeVsHuman} strong />
                    <VoteRow label="Human vs human (ceiling)" v={data.humanVsHuman} strong />
                  </TBody>
                </Table>
              </Card>
            </div>

            <Card title="By criterion" actions={csv('criteria')} padded={false}>
              <SummaryTable
                caption="Alignment per criterion"
                rows={data.byCriterion.map((c) => ({
                  key: c.criterion,
                  label: c.name,
                  sub: c.level === 'principle' ? c.principle : c.level === 'general' ? 'general' : undefined,
                  unjudged: c.unjudged,
                  s: c,
                }))}
                showUnjudged
                testId="criterion-table"
              />
            </Card>

            <Card
              title="By principle"
              description="The principle-level criteria of each principle, pooled."
              actions={csv('principles')}
              padded={false}
            >
              {data.byPrinciple.length === 0 ? (
                <p className="px-4 py-3 text-sm text-slate-500">This study has no principle-level criteria.</p>
              ) : (
                <SummaryTable
                  caption="Alignment per principle"
                  rows={data.byPrinciple.map((p) => ({ key: p.principle, label: p.principle, sub: `${p.criteria.length} criteria`, s: p }))}
                />
              )}
            </Card>

            <Card
              title="By model"
              description="The model that wrote reply a (never shown to reviewers)."
              actions={csv('models')}
              padded={false}
            >
              <SummaryTable
                caption="Alignment per model"
                rows={data.byModel.map((m) => ({ key: m.model, label: m.model, s: m }))}
                testId="model-table"
              />
            </Card>
          </>
        )}
      </div>
    </div>
  );
}

function Fact({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div>
      <dt className="text-xs tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="font-semibold text-slate-900 tabular-nums">
        {value}
        {note ? <span className="block text-xs font-normal text-slate-500">{note}</span> : null}
      </dd>
    </div>
  );
}

function VoteRow({ label, v, strong }: { label: string; v: Votes; strong?: boolean }) {
  return (
    <TR className={strong ? 'bg-slate-50' : undefined}>
      <TD className={strong ? 'font-medium' : undefined}>{label}</TD>
      <TD numeric>{count(v.n)}</TD>
      <TD numeric>
        <Value value={v.agreement} reason={v.agreementReason} kind="rate" interval={v.intervals.agreement} />
      </TD>
      <TD numeric>
        <Value value={v.agreementNoTies} reason={v.agreementNoTiesReason} kind="rate" interval={v.intervals.agreementNoTies} />
        <span className="block text-xs text-slate-500">{count(v.nNoTies)} votes</span>
      </TD>
    </TR>
  );
}

type SummaryRow = { key: string; label: string; sub?: string; unjudged?: number; s: Summary };

function SummaryTable({
  caption,
  rows,
  showUnjudged,
  testId,
}: {
  caption: string;
  rows: SummaryRow[];
  showUnjudged?: boolean;
  testId?: string;
}) {
  const measured = rows.filter((r) => r.s.n > 0);
  const empty = rows.filter((r) => r.s.n === 0);
  const noun: [string, string] = caption.endsWith('criterion')
    ? ['criterion', 'criteria']
    : caption.endsWith('principle')
      ? ['principle', 'principles']
      : ['row', 'rows'];
  return (
    <>
      <Table caption={caption} captionHidden wrapperClassName="rounded-none border-0" data-testid={testId}>
        <THead>
          <TR>
            <Th>{caption.replace('Alignment per ', '').replace(/^./, (c) => c.toUpperCase())}</Th>
            <Th numeric>Labels</Th>
            {showUnjudged ? <Th numeric>Unjudged</Th> : null}
            <Th numeric>Alignment rate</Th>
            <Th numeric>Without ties</Th>
            <Th numeric>Cohen’s κ</Th>
          </TR>
        </THead>
        <TBody>
          {measured.map(({ key, label, sub, unjudged, s }) => (
            <TR key={key}>
              <TD>
                <span className="font-medium">{label}</span>
                {sub ? <span className="block text-xs text-slate-500">{sub}</span> : null}
              </TD>
              <TD numeric>{count(s.n)}</TD>
              {showUnjudged ? <TD numeric>{count(unjudged ?? 0)}</TD> : null}
              <TD numeric>
                <Value value={s.alignmentRate} reason={s.alignmentRateReason} kind="rate" interval={s.intervals.alignmentRate} />
              </TD>
              <TD numeric>
                <Value
                  value={s.alignmentRateNoTies}
                  reason={s.alignmentRateNoTiesReason}
                  kind="rate"
                  interval={s.intervals.alignmentRateNoTies}
                />
                <span className="block text-xs text-slate-500">{count(s.nNoTies)} labels</span>
              </TD>
              <TD numeric>
                <Value value={s.cohenKappa} reason={s.cohenKappaReason} kind="coef" interval={s.intervals.cohenKappa} />
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
      <FoldedEmpty names={empty.map((r) => r.label)} noun={noun} why="no ground-truth label the judge was compared on" />
    </>
  );
}
