import { Card } from '@/components/ui/card';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import type { ReportTable } from '@/lib/server/analytics/dto';
import { type ReportJson, reportFilename, reportUrl } from '@/lib/query/analytics';
import { CalibrationCard } from './calibration-card';
import { DownloadLink } from './downloads';
import { count, reasonText } from './format';
import { Th } from './th';
import { LengthBiasTable } from './length-bias-table';
import { Value } from './value';

type Report = ReportJson['bias'];
type First = Report['judgePosition'][number]['firstPreferred'];

function FirstCells({ f }: { f: First }) {
  return (
    <>
      <TD numeric>
        <Value value={f.rate} reason={f.rateReason} kind="rate" interval={f.interval} testId="first-rate" />
        <span className="block text-xs text-slate-500">
          {count(f.count)} of {count(f.decisive)}
        </span>
      </TD>
      <TD numeric>
        <Value value={f.pValue} reason={f.pValueReason} kind="p" />
      </TD>
    </>
  );
}

/** Position and length biases of the graders, side by side (the `bias` report). */
export function BiasDashboard({ studyId, data }: { studyId: number; data: Report }) {
  const csv = (table: ReportTable<'bias'>) => (
    <DownloadLink
      href={reportUrl(studyId, 'bias', {}, { format: 'csv', table })}
      filename={reportFilename(studyId, 'bias', { table, format: 'csv' })}
    >
      CSV
    </DownloadLink>
  );
  return (
    <div className="space-y-5">
      <div className="flex justify-end">
        <DownloadLink href={reportUrl(studyId, 'bias', {})} filename={reportFilename(studyId, 'bias', { format: 'json' })}>
          Whole report (JSON)
        </DownloadLink>
      </div>

      <Card
        title="Judge position bias"
        description="Does the judge change its verdict when the replies swap places?"
        actions={csv('judge-position')}
        padded={false}
      >
        <p className="px-4 pt-3 text-sm text-slate-600">
          Only items the judge saw in both orders count. Flip rate: the share whose verdict changed with the order; first shown preferred:
          the share of decisive verdicts that chose the reply shown first (50 % = no position bias; Wilson 95 % interval, exact binomial p).
        </p>
        {data.judgePosition.every((j) => j.itemsBothOrders === 0) ? (
          <p className="px-4 py-3 text-sm text-slate-600" data-testid="judge-position-none">
            No judge run has judged an item in both reply orders, so there is nothing to compare: position bias appears for a run made with
            “send both orders” (the default for pairwise runs started in Concord).
          </p>
        ) : (
          <Table caption="Judge position bias" captionHidden wrapperClassName="rounded-none border-0" data-testid="judge-position-table">
            <THead>
              <TR>
                <Th>Judge run · criterion</Th>
                <Th numeric>In both orders</Th>
                <Th numeric>Flip rate</Th>
                <Th numeric>Win ↔ lose</Th>
                <Th numeric>First shown preferred</Th>
                <Th numeric>p</Th>
              </TR>
            </THead>
            <TBody>
              {data.judgePosition.map((j) => (
                <TR key={`${j.judge}\u0000${j.criterion}`} data-testid="judge-position-row">
                  <TD>
                    <span className="font-medium">{j.judge}</span>
                    <span className="block text-xs text-slate-500">{j.criterion}</span>
                  </TD>
                  <TD numeric>
                    {count(j.itemsBothOrders)} of {count(j.items)}
                  </TD>
                  <TD numeric>
                    <Value value={j.flipRate} reason={j.flipRateReason} kind="rate" />
                  </TD>
                  <TD numeric>
                    <Value value={j.reversalRate} reason={j.reversalRateReason} kind="rate" />
                  </TD>
                  <FirstCells f={j.firstPreferred} />
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      <Card
        title="Reviewer position bias"
        description="Do reviewers prefer the reply shown first?"
        actions={csv('human-position')}
        padded={false}
      >
        <p className="px-4 pt-3 text-sm text-slate-600">
          From the order each reviewer saw the replies in, stored with every label given on the review screen: the share of decisive labels
          that chose Response 1 (50 % = no order effect), per reviewer and for everyone together.
        </p>
        {data.humanPositionReason ? (
          <p className="px-4 py-3 text-sm text-amber-800" data-testid="human-position-empty">
            Not available: {reasonText(data.humanPositionReason)} — imported labels carry no display order; only labels given on Concord’s
            review screen do.
          </p>
        ) : (
          <Table caption="Reviewer position bias" captionHidden wrapperClassName="rounded-none border-0" data-testid="human-position-table">
            <THead>
              <TR>
                <Th>Criterion · reviewer</Th>
                <Th numeric>Labels</Th>
                <Th numeric>First shown preferred</Th>
                <Th numeric>p</Th>
              </TR>
            </THead>
            <TBody>
              {data.humanPosition.map((h) => (
                <TR key={`${h.criterion}\u0000${h.reviewer ?? ''}`} className={h.reviewer === null ? 'bg-slate-50/70' : undefined}>
                  <TD>
                    <span className="font-medium">{h.reviewer ?? 'All reviewers'}</span>
                    <span className="block text-xs text-slate-500">{h.criterion}</span>
                  </TD>
                  <TD numeric>{count(h.verdicts)}</TD>
                  <FirstCells f={h.firstPreferred} />
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      <Card title="Length bias" description="Does the longer reply win more often?" actions={csv('length')} padded={false}>
        <p className="px-4 pt-3 text-sm text-slate-600">
          d = length of reply a − length of reply b, in characters. Win share of reply a (ties ½) in each fifth of the items ordered by d,
          and the slope of the log-odds that a wins on sign(d)·ln(1 + |d|) (0 = length does not matter). Longer replies are often better, so
          compare a judge’s slope with the ground truth’s: the difference is the judge’s own length bias.
        </p>
        <LengthBiasTable
          itemsLabel="Items"
          scopeLabel="criterion"
          unit="range of d"
          fifths={['a shortest', 'a longest']}
          rows={data.length.map((l) => ({
            grader: l.grader,
            scope: l.criterion,
            n: l.n,
            slope: l.slope,
            slopeReason: l.slopeReason,
            slopeInterval: l.intervals.slope,
            pValue: l.pValue,
            pValueReason: l.pValueReason,
            bins: (l.bins ?? []).map((b) => ({
              bin: b.bin,
              value: b.winShareTiesHalf,
              reason: b.winShareTiesHalfReason,
              lowerEdge: b.lowerEdge,
              upperEdge: b.upperEdge,
            })),
          }))}
        />
      </Card>

      <CalibrationCard data={data} csv={csv} />
    </div>
  );
}
