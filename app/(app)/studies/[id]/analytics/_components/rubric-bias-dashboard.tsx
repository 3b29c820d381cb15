'use client';

import { useState } from 'react';
import { IntervalBars } from '@/components/charts/interval-bars';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import type { ReportTable } from '@/lib/server/analytics/dto';
import { type ReportJson, type ReportParams, reportFilename, reportUrl } from '@/lib/query/analytics';
import { CalibrationCard } from './calibration-card';
import { DownloadLink } from './downloads';
import { count, formatValue, reasonText } from './format';
import { Th } from './th';
import { LengthBiasTable } from './length-bias-table';
import { Value } from './value';
import { useOptionsInUrl, useReport } from './use-report';

type Report = ReportJson['rubric-bias'];

/** A judge run that gave the same label as the ground truth on every shared reply: no disagreement to lean either way. */
const agreesEverywhere = (l: { judgeOnly: number; groundTruthOnly: number }) => l.judgeOnly + l.groundTruthOnly === 0;

/**
 * Biases of the graders of a rubric study (the `rubric-bias` report): each judge run's leniency against the ground
 * truth on the same replies, and the length bias of the desired label for the ground truth and every judge run.
 */
export function RubricBiasDashboard({ studyId, initial }: { studyId: number; initial: Report }) {
  const [lenient, setLenient] = useState(initial.lenient);
  const [sample, setSample] = useState(initial.sample);
  const asked: ReportParams['rubric-bias'] = { sample, lenient: lenient ? 'true' : 'false' };
  const { data, fetching, error, retry } = useReport(studyId, 'rubric-bias', asked, {
    params: { sample: initial.sample, lenient: initial.lenient ? 'true' : 'false' },
    data: initial,
  });
  useOptionsInUrl({ sample: sample === 1 ? undefined : sample, lenient: lenient ? 'true' : undefined });
  const shown: ReportParams['rubric-bias'] = { sample: data.sample, lenient: data.lenient ? 'true' : 'false' };
  const csv = (table: ReportTable<'rubric-bias'>) => (
    <DownloadLink
      href={reportUrl(studyId, 'rubric-bias', shown, { format: 'csv', table })}
      filename={reportFilename(studyId, 'rubric-bias', { table, format: 'csv' })}
    >
      CSV
    </DownloadLink>
  );
  const names = new Map(data.dimensions.map((d) => [d.id, d.name]));
  const desired = (id: string) => {
    const d = data.dimensions.find((x) => x.id === id);
    if (!d) return id;
    const folded = data.lenient && d.lenient ? Object.keys(d.lenient).filter((l) => d.lenient![l] === d.desired) : [];
    return [d.desired, ...folded].join(' or ');
  };
  const canFold = data.dimensions.some((d) => d.lenient);

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-end gap-4">
          {data.samples.length > 1 ? (
            <Select label="Judge sample" value={String(sample)} onChange={(e) => setSample(Number(e.target.value))} wrapperClassName="w-36">
              {data.samples.map((s) => (
                <option key={s} value={s}>
                  sample {s}
                </option>
              ))}
            </Select>
          ) : null}
          {canFold ? (
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" checked={lenient} onChange={(e) => setLenient(e.target.checked)} data-testid="bias-lenient" />
              Lenient: count the labels each dimension&apos;s map folds into the desired one (e.g. &ldquo;To some extent&rdquo; as
              &ldquo;Yes&rdquo;)
            </label>
          ) : null}
        </div>
        <div className="flex items-center gap-3">
          {fetching ? (
            <p role="status" className="text-sm text-slate-600">
              Computing…
            </p>
          ) : null}
          <DownloadLink
            href={reportUrl(studyId, 'rubric-bias', shown)}
            filename={reportFilename(studyId, 'rubric-bias', { format: 'json' })}
          >
            Whole report (JSON)
          </DownloadLink>
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

      <Card
        title="Judge leniency"
        description="Does the judge give the desired label more often than people do, on the same replies?"
        actions={csv('leniency')}
        padded={false}
      >
        <p className="px-4 pt-3 text-sm text-slate-600">
          On the replies with both a ground-truth label and a verdict (judge sample {data.sample}): the share with the desired label from
          the judge and from the ground truth, and — where the two differ — the share where the judge was the generous one (50 % = no
          leniency; Wilson 95 % interval, McNemar&apos;s exact p).
        </p>
        {data.leniency.length ? (
          <>
            <div className="px-4 pt-3">
              {/* Runs that never disagree with people have no share to draw: one line says so instead of a bar of n/a. */}
              {data.leniency.every(agreesEverywhere) ? (
                <p className="text-sm text-slate-600" data-testid="leniency-no-disagreement">
                  The judge and the ground truth gave the same label on every reply they share, so there is no disagreement to lean either
                  way; the generous share appears once they differ on a reply.
                </p>
              ) : (
                <IntervalBars
                  rows={data.leniency
                    .filter((l) => !agreesEverywhere(l))
                    .map((l) => ({
                      label: `${l.judge} · ${names.get(l.criterion) ?? l.criterion}`,
                      value: l.judgeMoreLenient.rate,
                      lo: l.judgeMoreLenient.interval.lower,
                      hi: l.judgeMoreLenient.interval.upper,
                      note: l.judgeMoreLenient.rate === null ? reasonText(l.judgeMoreLenient.rateReason) : undefined,
                    }))}
                  domain={[0, 1]}
                  bands={[
                    { from: 0, to: 0.5, label: 'stricter than people', tone: 'neutral' },
                    { from: 0.5, to: 1, label: 'more lenient than people', tone: 'warning' },
                  ]}
                  ariaLabel="Share of the disagreements where the judge gave the desired label, with 95 % intervals"
                />
              )}
            </div>
            <Table caption="Judge leniency" captionHidden wrapperClassName="rounded-none border-0" data-testid="leniency-table">
              <THead>
                <TR>
                  <Th>Judge run · dimension</Th>
                  <Th numeric>Replies</Th>
                  <Th numeric>Judge: desired</Th>
                  <Th numeric>Ground truth: desired</Th>
                  <Th numeric>Only the judge</Th>
                  <Th numeric>Only people</Th>
                  <Th numeric>Judge the generous one</Th>
                  <Th numeric>p</Th>
                </TR>
              </THead>
              <TBody>
                {data.leniency.map((l) => (
                  <TR key={`${l.judge}\u0000${l.criterion}`} data-testid="leniency-row">
                    <TD>
                      <span className="font-medium">{l.judge}</span>
                      <span className="block text-xs text-slate-500">
                        {names.get(l.criterion) ?? l.criterion} · desired: {desired(l.criterion)}
                      </span>
                    </TD>
                    <TD numeric>{count(l.n)}</TD>
                    <TD numeric>
                      <Value value={l.judgeShare} reason={l.judgeShareReason} kind="rate" />
                    </TD>
                    <TD numeric>
                      <Value value={l.groundTruthShare} reason={l.groundTruthShareReason} kind="rate" />
                    </TD>
                    <TD numeric>{count(l.judgeOnly)}</TD>
                    <TD numeric>{count(l.groundTruthOnly)}</TD>
                    {agreesEverywhere(l) ? (
                      <TD numeric colSpan={2} className="text-slate-500">
                        no disagreement
                      </TD>
                    ) : (
                      <>
                        <TD numeric>
                          <Value
                            value={l.judgeMoreLenient.rate}
                            reason={l.judgeMoreLenient.rateReason}
                            kind="rate"
                            interval={l.judgeMoreLenient.interval}
                            testId="leniency-rate"
                          />
                        </TD>
                        <TD numeric>
                          <Value value={l.judgeMoreLenient.pValue} reason={l.judgeMoreLenient.pValueReason} kind="p" />
                        </TD>
                      </>
                    )}
                  </TR>
                ))}
              </TBody>
            </Table>
          </>
        ) : (
          <p className="px-4 py-3 text-sm text-slate-500" data-testid="leniency-empty">
            No judge run has a verdict on a reply with ground truth yet.
          </p>
        )}
      </Card>

      <Card title="Length bias" description="Do longer replies get the desired label more often?" actions={csv('length')} padded={false}>
        <p className="px-4 pt-3 text-sm text-slate-600">
          The share of replies with the desired label in each fifth of the replies ordered by length (in characters), and the slope of its
          log-odds on ln(1 + length) (0 = length does not matter). Better replies may be longer, so compare a judge&apos;s slope with the
          ground truth&apos;s: the difference is the judge&apos;s own length bias.
        </p>
        {data.lengthReason ? (
          <p className="px-4 py-3 text-sm text-slate-500" data-testid="length-empty">
            Not available: {reasonText(data.lengthReason)} — the items are whole dialogues, without a reply to measure.
          </p>
        ) : (
          <LengthBiasTable
            itemsLabel="Replies"
            scopeLabel="dimension"
            unit="reply length in characters"
            fifths={['shortest', 'longest']}
            rows={data.length.map((l) => ({
              grader: l.grader,
              scope: `${names.get(l.criterion) ?? l.criterion} · ${formatValue(l.n ? l.desired / l.n : 0, 'rate')} desired`,
              n: l.n,
              slope: l.slope,
              slopeReason: l.slopeReason,
              slopeInterval: l.intervals.slope,
              pValue: l.pValue,
              pValueReason: l.pValueReason,
              bins: (l.bins ?? []).map((b) => ({
                bin: b.bin,
                value: b.share,
                reason: b.shareReason,
                lowerEdge: b.lowerEdge,
                upperEdge: b.upperEdge,
              })),
            }))}
          />
        )}
      </Card>

      <CalibrationCard data={data} csv={csv} />
    </div>
  );
}
