'use client';

import { useState, useTransition } from 'react';
import { Heatmap } from '@/components/charts/heatmap';
import { IntervalBars } from '@/components/charts/interval-bars';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Select } from '@/components/ui/select';
import { Stat } from '@/components/ui/stat';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import type { ReportName, ReportTable } from '@/lib/io/report-csv';
import { type Flat, type ReportJson, type ReportParams, reportFilename, reportUrl } from '@/lib/query/analytics';
import type { PersonDto } from '@/lib/server/accounts/dto';
import type { HybridPlanDto, JudgeRunDto, RubricSummaryDto } from '@/lib/server/analytics/dto';
import { openRubricHybridQueueAction } from '../actions';
import { DownloadLink } from './downloads';
import { RubricCertifyCard } from './certify-card';
import { count, formatValue } from './format';
import { IntervalsPanel } from './intervals-panel';
import { JudgeSelect } from './judge-select';
import { Th } from './th';
import { AUTO_BOOTSTRAP_MAX_LABELS, INTERVAL_REPLICATES, useOptionsInUrl, useReport } from './use-report';
import { Value } from './value';

/*
 * The dashboards of a rubric study (one reply labelled on several dimensions): agreement, judge alignment (strict
 * and lenient, per tutor × dimension), the per-tutor leaderboard of desired-label shares, and Padó's hybrid plan.
 * Each reads the same JSON as `concord report … --json` and offers its tables as CSV.
 */

type Summary = Flat<RubricSummaryDto>;
type Plan = Flat<HybridPlanDto>;

function Csv<R extends ReportName>({
  studyId,
  report,
  params,
  table,
  name,
}: {
  studyId: number;
  report: R;
  params: ReportParams[R];
  table: ReportTable<R>;
  name?: string;
}) {
  return (
    <DownloadLink
      href={reportUrl(studyId, report, params, { format: 'csv', table })}
      filename={reportFilename(studyId, report, { judge: name, table, format: 'csv' })}
    >
      CSV
    </DownloadLink>
  );
}

function Json<R extends ReportName>({
  studyId,
  report,
  params,
  name,
}: {
  studyId: number;
  report: R;
  params: ReportParams[R];
  name?: string;
}) {
  return (
    <DownloadLink href={reportUrl(studyId, report, params)} filename={reportFilename(studyId, report, { judge: name, format: 'json' })}>
      Whole report (JSON)
    </DownloadLink>
  );
}

const Explain = ({ children }: { children: React.ReactNode }) => <p className="text-sm text-slate-600">{children}</p>;

/* ----- agreement ----- */

export function RubricAgreementDashboard({ studyId, initial }: { studyId: number; initial: ReportJson['rubric-agreement'] }) {
  const labels = initial.criteria.reduce((s, c) => s + c.ratings, 0);
  const [bootstrap, setBootstrap] = useState(labels > 0 && labels <= AUTO_BOOTSTRAP_MAX_LABELS ? INTERVAL_REPLICATES : 0);
  const { data, error, retry } = useReport(studyId, 'rubric-agreement', { bootstrap }, { params: { bootstrap: 0 }, data: initial });
  const params = { bootstrap: data.bootstrap.replicates };
  if (labels === 0)
    return <EmptyState title="No labels yet" description="Agreement appears once two reviewers have labelled the same reply." />;
  return (
    <div className="space-y-5">
      <div className="flex justify-end">
        <Json studyId={studyId} report="rubric-agreement" params={params} />
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
      <Card
        title="Agreement per dimension"
        padded={false}
        actions={<Csv studyId={studyId} report="rubric-agreement" params={params} table="criteria" />}
      >
        <div className="px-4 pt-3">
          <Explain>
            How often the reviewers gave a reply the same label before adjudication, dimension by dimension. Fleiss’ κ and Krippendorff’s α
            take away the agreement expected by chance; the ordinal α counts a near miss (“No” against “To some extent”) as less of a
            disagreement than a far one.
          </Explain>
        </div>
        <Table caption="Agreement per dimension" captionHidden data-testid="rubric-agreement-table">
          <THead>
            <TR>
              <Th>Dimension</Th>
              <Th numeric>Replies</Th>
              <Th numeric>Agreement</Th>
              <Th numeric>Fleiss κ</Th>
              <Th numeric>α nominal</Th>
              <Th numeric>α ordinal</Th>
            </TR>
          </THead>
          <TBody>
            {data.criteria.map((c) => (
              <TR key={c.criterion}>
                <TD>
                  <span className="font-medium">{c.name}</span>
                  <span className="block text-xs text-slate-500">{c.labels.join(' < ')}</span>
                </TD>
                <TD numeric>{count(c.items)}</TD>
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
      </Card>
      <Card
        title="Reviewer pairs"
        padded={false}
        actions={<Csv studyId={studyId} report="rubric-agreement" params={params} table="pairs" />}
      >
        <div className="px-4 pt-3">
          <Explain>
            Cohen’s κ for every two reviewers who labelled the same replies; the weighted κ gives partial credit for neighbouring labels.
          </Explain>
        </div>
        <Table caption="Cohen’s κ per reviewer pair" captionHidden>
          <THead>
            <TR>
              <Th>Dimension</Th>
              <Th>Reviewers</Th>
              <Th numeric>Replies</Th>
              <Th numeric>κ</Th>
              <Th numeric>κ linear</Th>
              <Th numeric>κ quadratic</Th>
            </TR>
          </THead>
          <TBody>
            {data.criteria.flatMap((c) =>
              c.pairs.map((p) => (
                <TR key={`${c.criterion}-${p.annotators.join('-')}`}>
                  <TD>{c.name}</TD>
                  <TD>{p.annotators.join(' × ')}</TD>
                  <TD numeric>{count(p.items)}</TD>
                  <TD numeric>
                    <Value value={p.cohenKappa} reason={p.cohenKappaReason} kind="coef" interval={p.intervals.cohenKappa} />
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
              )),
            )}
          </TBody>
        </Table>
      </Card>
    </div>
  );
}

/* ----- alignment ----- */

function SummaryCells({ s }: { s: Summary | undefined }) {
  if (!s)
    return (
      <TD colSpan={4} className="text-slate-400">
        no lenient map
      </TD>
    );
  return (
    <>
      <TD numeric>{count(s.n)}</TD>
      <TD numeric>
        <Value value={s.alignmentRate} reason={s.alignmentRateReason} kind="rate" interval={s.intervals.alignmentRate} />
      </TD>
      <TD numeric>
        <Value value={s.macroF1} reason={s.macroF1Reason} kind="coef" />
      </TD>
      <TD numeric>
        <Value value={s.cohenKappa} reason={s.cohenKappaReason} kind="coef" interval={s.intervals.cohenKappa} />
      </TD>
    </>
  );
}

const pick = (s: Summary & { lenient?: Summary }, lenient: boolean): Summary | undefined => (lenient ? s.lenient : s);

export function RubricAlignmentDashboard({
  studyId,
  runs,
  initial,
}: {
  studyId: number;
  runs: JudgeRunDto[];
  initial: ReportJson['rubric-alignment'];
}) {
  const [judge, setJudge] = useState(initial.judge);
  const [sample, setSample] = useState(initial.sample);
  const [lenient, setLenient] = useState(false);
  const [dimension, setDimension] = useState(initial.dimensions[0]?.id ?? '');
  const labels = initial.overall.n;
  const [bootstrap, setBootstrap] = useState(labels > 0 && labels <= AUTO_BOOTSTRAP_MAX_LABELS ? INTERVAL_REPLICATES : 0);
  const { data, fetching, error, retry } = useReport(
    studyId,
    'rubric-alignment',
    { judge, sample, bootstrap },
    { params: { judge: initial.judge, sample: initial.sample, bootstrap: 0 }, data: initial },
  );
  useOptionsInUrl({ judge, sample: sample === 1 ? undefined : sample });
  const params = { judge: data.judge, sample: data.sample, bootstrap: data.bootstrap.replicates };
  const anyLenient = data.dimensions.some((d) => d.lenient);
  const scored = (s: Summary & { lenient?: Summary }) => pick(s, lenient);
  const dim = data.byCriterion.find((c) => c.criterion === dimension) ?? data.byCriterion[0];
  const shown = dim ? scored(dim) : undefined;
  const overall = scored(data.overall);
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-4">
          <JudgeSelect
            runs={runs}
            value={judge}
            onChange={(j) => {
              setJudge(j);
              setSample(1);
            }}
          />
          {data.samples.length > 1 ? (
            <Select label="Sample" value={String(sample)} onChange={(e) => setSample(Number(e.target.value))} wrapperClassName="w-32">
              {data.samples.map((s) => (
                <option key={s} value={s}>
                  sample {s}
                </option>
              ))}
            </Select>
          ) : null}
          {anyLenient ? (
            <Select
              label="Scoring"
              value={lenient ? 'lenient' : 'strict'}
              onChange={(e) => setLenient(e.target.value === 'lenient')}
              wrapperClassName="w-72"
              data-testid="scoring-select"
            >
              <option value="strict">Strict (every label its own class)</option>
              <option value="lenient">Lenient (labels folded by the dimension’s map)</option>
            </Select>
          ) : null}
          {fetching && data.judge !== judge ? (
            <p role="status" className="pb-2 text-sm text-slate-600">
              Loading {judge}…
            </p>
          ) : null}
        </div>
        <Json studyId={studyId} report="rubric-alignment" params={params} name={data.judge} />
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
      <div className="grid gap-3 sm:grid-cols-4">
        <Stat
          label="Ground-truth labels judged"
          value={data.overall.n}
          sublabel={`${count(data.unjudged)} without a verdict, ${count(data.groundTruth.incompleteItems)} replies not settled`}
        />
        <Stat
          label="Judge equals ground truth"
          value={overall?.alignmentRate == null ? 'n/a' : formatValue(overall.alignmentRate, 'rate')}
          sublabel={lenient ? 'lenient' : 'strict'}
        />
        <Stat
          label="Macro-F1 (all dimensions)"
          value={overall?.macroF1 == null ? 'n/a' : formatValue(overall.macroF1, 'coef')}
          sublabel={overall?.macroF1 == null ? 'dimensions have different labels' : 'mean F1 over labels'}
        />
        <Stat label="Cohen’s κ (all dimensions)" value={overall?.cohenKappa == null ? 'n/a' : formatValue(overall.cohenKappa, 'coef')} />
      </div>
      <Card
        title="Per dimension"
        padded={false}
        actions={<Csv studyId={studyId} report="rubric-alignment" params={params} table="summaries" name={data.judge} />}
      >
        <div className="px-4 pt-3">
          <Explain>
            How often “{data.judge}” gives a reply the label people settled on, per dimension. Macro-F1 weighs every label equally, so a
            judge that only ever says the common label scores low; κ takes away chance agreement.
          </Explain>
        </div>
        <Table caption="Judge against ground truth per dimension" captionHidden data-testid="rubric-alignment-table">
          <THead>
            <TR>
              <Th>Dimension</Th>
              <Th numeric>Labels</Th>
              <Th numeric>Accuracy</Th>
              <Th numeric>Macro-F1</Th>
              <Th numeric>κ</Th>
            </TR>
          </THead>
          <TBody>
            {data.byCriterion.map((c) => (
              <TR key={c.criterion}>
                <TD>{c.name}</TD>
                <SummaryCells s={scored(c)} />
              </TR>
            ))}
          </TBody>
        </Table>
      </Card>
      {dim ? (
        <Card
          title="Confusion matrix and class-wise accuracy"
          actions={
            <>
              <Csv studyId={studyId} report="rubric-alignment" params={params} table="confusion" name={data.judge} />
              <Csv studyId={studyId} report="rubric-alignment" params={params} table="classwise" name={data.judge} />
            </>
          }
        >
          <div className="space-y-3">
            <Select label="Dimension" value={dim.criterion} onChange={(e) => setDimension(e.target.value)} wrapperClassName="w-72">
              {data.byCriterion.map((c) => (
                <option key={c.criterion} value={c.criterion}>
                  {c.name}
                </option>
              ))}
            </Select>
            {shown && shown.labels && shown.confusion ? (
              <>
                <Explain>
                  Rows: the label people settled on; columns: the judge’s. Class-wise accuracy is how often the judge is right when it gives
                  a label (Padó’s measure for deciding which of its labels to trust); recall is how many of the replies with that label it
                  finds.
                </Explain>
                <Heatmap
                  rowLabels={shown.labels}
                  colLabels={shown.labels}
                  values={shown.confusion}
                  rowTitle="Ground truth"
                  colTitle="Judge"
                />
                <Table caption="Class-wise accuracy and recall" captionHidden>
                  <THead>
                    <TR>
                      <Th>Judge’s label</Th>
                      <Th numeric>Given</Th>
                      <Th numeric>Right</Th>
                      <Th numeric>Class-wise accuracy</Th>
                      <Th numeric>Recall</Th>
                    </TR>
                  </THead>
                  <TBody>
                    {shown.classwise.map((c) => (
                      <TR key={c.label}>
                        <TD>{c.label}</TD>
                        <TD numeric>{count(c.predicted)}</TD>
                        <TD numeric>{count(c.correct)}</TD>
                        <TD numeric>
                          <Value value={c.accuracy} reason={c.accuracyReason} kind="rate" interval={c.intervals.accuracy} />
                        </TD>
                        <TD numeric>
                          <Value value={c.recall} reason={c.recallReason} kind="rate" interval={c.intervals.recall} />
                        </TD>
                      </TR>
                    ))}
                  </TBody>
                </Table>
              </>
            ) : (
              <p className="text-sm text-slate-500">This dimension has no lenient map.</p>
            )}
          </div>
        </Card>
      ) : null}
      <Card title="Per tutor and dimension" padded={false}>
        <div className="px-4 pt-3">
          <Explain>
            The judge’s accuracy on each tutor’s replies (as in Padó’s Table 3): a judge can be reliable for one tutor and not for another.
          </Explain>
        </div>
        <Table caption="Accuracy per tutor and dimension" captionHidden data-testid="rubric-tutor-table">
          <THead>
            <TR>
              <Th>Tutor</Th>
              <Th numeric>All dimensions</Th>
              {data.dimensions.map((d) => (
                <Th key={d.id} numeric>
                  {d.name}
                </Th>
              ))}
            </TR>
          </THead>
          <TBody>
            {data.byModel.map((m) => {
              const all = scored(m);
              return (
                <TR key={m.model}>
                  <TD>{m.model}</TD>
                  <TD numeric>
                    {all ? (
                      <Value
                        value={all.alignmentRate}
                        reason={all.alignmentRateReason}
                        kind="rate"
                        interval={all.intervals.alignmentRate}
                      />
                    ) : (
                      '—'
                    )}
                  </TD>
                  {m.byCriterion.map((c) => {
                    const s = scored(c);
                    return (
                      <TD key={c.criterion} numeric>
                        {s ? (
                          <>
                            <Value
                              value={s.alignmentRate}
                              reason={s.alignmentRateReason}
                              kind="rate"
                              interval={s.intervals.alignmentRate}
                            />
                            <span className="block text-xs text-slate-500">n {count(s.n)}</span>
                          </>
                        ) : (
                          '—'
                        )}
                      </TD>
                    );
                  })}
                </TR>
              );
            })}
          </TBody>
        </Table>
      </Card>
      <RubricCertifyCard studyId={studyId} judge={data.judge} sample={data.sample} dimensions={data.dimensions} />
    </div>
  );
}

/* ----- leaderboard ----- */

export function RubricLeaderboardDashboard({ studyId, initial }: { studyId: number; initial: ReportJson['rubric-leaderboard'] }) {
  const data = initial;
  const [lenient, setLenient] = useState(false);
  const [dimension, setDimension] = useState(data.dimensions[0]?.id ?? '');
  const params = { sample: data.sample };
  const anyLenient = data.dimensions.some((d) => d.lenient);
  const share = (r: (typeof data.rows)[number], id: string) =>
    lenient && r.lenient[id] !== undefined
      ? { value: r.lenient[id], reason: r.lenientReasons?.[id], interval: r.intervals.lenient[id] }
      : { value: r.perCriterion[id], reason: r.perCriterionReasons?.[id], interval: r.intervals.perCriterion[id] };
  const dim = data.dimensions.find((d) => d.id === dimension) ?? data.dimensions[0];
  const gold = data.rows.filter((r) => r.grader === 'ground truth');
  if (!dim) return <EmptyState title="No dimensions" description="This study has no dimensions to rank tutors on." />;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        {anyLenient ? (
          <Select
            label="Scoring"
            value={lenient ? 'lenient' : 'strict'}
            onChange={(e) => setLenient(e.target.value === 'lenient')}
            wrapperClassName="w-72"
          >
            <option value="strict">Strict: only the desired label counts</option>
            <option value="lenient">Lenient: labels folded by the dimension’s map</option>
          </Select>
        ) : (
          <span />
        )}
        <Json studyId={studyId} report="rubric-leaderboard" params={params} />
      </div>
      <Card
        title="Share of desired labels per tutor"
        padded={false}
        actions={<Csv studyId={studyId} report="rubric-leaderboard" params={params} table="leaderboard" />}
      >
        <div className="px-4 pt-3">
          <Explain>
            For each tutor, the share of its replies that got the dimension’s desired label (“{dim.desired}” on {dim.name}) — from the
            ground truth and from each judge run — with 95 % Wilson intervals, as in MRBench’s results tables.
          </Explain>
        </div>
        <Table caption="Desired-label share per tutor, grader and dimension" captionHidden data-testid="rubric-leaderboard-table">
          <THead>
            <TR>
              <Th>Tutor</Th>
              <Th>Graded by</Th>
              {data.dimensions.map((d) => (
                <Th key={d.id} numeric>
                  {d.name}
                </Th>
              ))}
            </TR>
          </THead>
          <TBody>
            {data.rows.map((r) => (
              <TR key={`${r.model}-${r.grader}`}>
                <TD>{r.model}</TD>
                <TD>{r.grader}</TD>
                {data.dimensions.map((d) => {
                  const s = share(r, d.id);
                  return (
                    <TD key={d.id} numeric>
                      <Value value={s.value} reason={s.reason} kind="rate" interval={s.interval} />
                    </TD>
                  );
                })}
              </TR>
            ))}
          </TBody>
        </Table>
      </Card>
      <Card title="Ground truth per tutor">
        <div className="space-y-3">
          <Select label="Dimension" value={dim.id} onChange={(e) => setDimension(e.target.value)} wrapperClassName="w-72">
            {data.dimensions.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </Select>
          <IntervalBars
            ariaLabel={`Share of “${dim.desired}” per tutor on ${dim.name}, from the ground truth`}
            domain={[0, 1]}
            rows={gold.map((r) => {
              const s = share(r, dim.id);
              return { label: r.model, value: s.value, lo: s.interval.lower, hi: s.interval.upper };
            })}
          />
        </div>
      </Card>
      {data.corrected.length ? (
        <Card
          title="Judge-corrected shares"
          padded={false}
          actions={<Csv studyId={studyId} report="rubric-leaderboard" params={params} table="corrected" />}
        >
          <div className="px-4 pt-3">
            <Explain>
              The judge’s share on every reply it labelled, corrected by the replies people settled (prediction-powered inference, PPI++): a
              valid 95 % interval when the settled replies are a random sample of the tutor’s, beside the people-only and judge-only
              estimates.
            </Explain>
          </div>
          <Table caption="Judge-corrected desired-label shares" captionHidden>
            <THead>
              <TR>
                <Th>Judge</Th>
                <Th>Tutor</Th>
                <Th>Dimension</Th>
                <Th numeric>People only</Th>
                <Th numeric>Judge only</Th>
                <Th numeric>Corrected</Th>
                <Th numeric>Worth (human labels)</Th>
              </TR>
            </THead>
            <TBody>
              {data.corrected.flatMap((run) =>
                run.cells
                  .filter((c) => c.lenient === (lenient && !!data.dimensions.find((d) => d.id === c.criterion)?.lenient))
                  .map((c) => (
                    <TR key={`${run.judge}-${c.model}-${c.criterion}-${c.lenient}`}>
                      <TD>{run.judge}</TD>
                      <TD>{c.model}</TD>
                      <TD>{c.criterion}</TD>
                      <TD numeric>
                        <Value value={c.humanOnly} reason={c.humanOnlyReason} kind="rate" interval={c.intervals.humanOnly} />
                      </TD>
                      <TD numeric>
                        <Value value={c.judgeOnly} reason={c.judgeOnlyReason} kind="rate" interval={c.intervals.judgeOnly} />
                      </TD>
                      <TD numeric>
                        <Value value={c.corrected} reason={c.correctedReason} kind="rate" interval={c.intervals.corrected} />
                      </TD>
                      <TD numeric>{c.effectiveLabels === null ? 'n/a' : count(Math.round(c.effectiveLabels))}</TD>
                    </TR>
                  )),
              )}
            </TBody>
          </Table>
        </Card>
      ) : null}
    </div>
  );
}

/* ----- hybrid ----- */

function PlanCells({ p }: { p: Plan }) {
  return (
    <>
      <TD numeric>{count(p.n)}</TD>
      <TD numeric>
        <Value value={p.accJudge} reason={p.accJudgeReason} kind="rate" interval={p.intervals.accJudge} />
      </TD>
      <TD>{p.acceptedClass ?? '—'}</TD>
      <TD numeric>
        <Value value={p.accHybrid} reason={p.accHybridReason} kind="rate" interval={p.intervals.accHybrid} />
      </TD>
      <TD numeric>
        <Value value={p.effortSaved} reason={p.effortSavedReason} kind="rate" interval={p.intervals.effortSaved} />
      </TD>
      <TD numeric>{count(p.extraReviewsExpected)}</TD>
    </>
  );
}

const PLAN_HEAD = (
  <>
    <Th numeric>Replies</Th>
    <Th numeric>Judge alone</Th>
    <Th>Accept</Th>
    <Th numeric>Hybrid</Th>
    <Th numeric>Effort saved</Th>
    <Th numeric>Extra reviews</Th>
  </>
);

export function RubricHybridDashboard({
  studyId,
  runs,
  dimensions,
  initial,
  people,
  studyOpen,
}: {
  studyId: number;
  runs: JudgeRunDto[];
  /** The study's dimensions, and whether each has a lenient map (only those can be planned leniently). */
  dimensions: { id: string; name: string; hasLenient: boolean }[];
  initial: ReportJson['rubric-hybrid'];
  people: PersonDto[];
  studyOpen: boolean;
}) {
  const [judge, setJudge] = useState(initial.judge);
  const [criterion, setCriterion] = useState(initial.criterion);
  const [lenient, setLenient] = useState(initial.lenient);
  const [target, setTarget] = useState(initial.target);
  const params: ReportParams['rubric-hybrid'] = { judge, criterion, target, lenient: lenient ? 'true' : 'false' };
  const { data, error } = useReport(studyId, 'rubric-hybrid', params, {
    params: { judge: initial.judge, criterion: initial.criterion, target: initial.target, lenient: initial.lenient ? 'true' : 'false' },
    data: initial,
  });
  useOptionsInUrl({ judge, criterion, target, lenient: lenient ? 'true' : undefined });
  const dims = data.byCriterion;
  const canFold = dimensions.find((d) => d.id === criterion)?.hasLenient ?? false;
  const shownParams: ReportParams['rubric-hybrid'] = {
    judge: data.judge,
    criterion: data.criterion,
    target: data.target,
    lenient: data.lenient ? 'true' : 'false',
  };
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-end gap-4">
          <JudgeSelect runs={runs} value={judge} onChange={setJudge} />
          <Select
            label="Dimension"
            value={criterion}
            onChange={(e) => {
              setCriterion(e.target.value);
              // A dimension without a lenient map is planned strictly.
              if (!dimensions.find((d) => d.id === e.target.value)?.hasLenient) setLenient(false);
            }}
            wrapperClassName="w-64"
          >
            {dimensions.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </Select>
          <label className="flex items-center gap-2 pb-2 text-sm">
            <input type="checkbox" checked={lenient} disabled={!canFold} onChange={(e) => setLenient(e.target.checked)} />
            Lenient (fold labels by the dimension’s map, as Padó)
          </label>
          <Select
            label="Target accuracy"
            value={String(target)}
            onChange={(e) => setTarget(Number(e.target.value))}
            wrapperClassName="w-40"
          >
            {[0.9, 0.95, 0.97, 0.99].map((t) => (
              <option key={t} value={t}>
                {Math.round(t * 100)} %
              </option>
            ))}
          </Select>
        </div>
        <Json studyId={studyId} report="rubric-hybrid" params={shownParams} name={data.judge} />
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Explain>
        Padó’s hybrid review: trust the judge on the label it gets right most often, send every reply it gave another label to people, and
        add random checks of the trusted label until the expected accuracy reaches {Math.round(data.target * 100)} %. Planned on the replies
        with both a ground truth and a verdict.
      </Explain>
      <Card
        title={`Plan for ${data.criterion}${data.lenient ? ' (lenient)' : ''}`}
        padded={false}
        actions={<Csv studyId={studyId} report="rubric-hybrid" params={shownParams} table="plans" name={data.judge} />}
      >
        <Table caption="Hybrid plan, every tutor and per tutor" captionHidden data-testid="rubric-hybrid-table">
          <THead>
            <TR>
              <Th>Tutor</Th>
              {PLAN_HEAD}
            </TR>
          </THead>
          <TBody>
            <TR>
              <TD className="font-medium">All tutors</TD>
              <PlanCells p={data} />
            </TR>
            {data.byModel.map((m) => (
              <TR key={m.model}>
                <TD>{m.model}</TD>
                <PlanCells p={m} />
              </TR>
            ))}
          </TBody>
        </Table>
      </Card>
      <Card
        title="Class-wise accuracy of the judge"
        padded={false}
        actions={<Csv studyId={studyId} report="rubric-hybrid" params={shownParams} table="classes" name={data.judge} />}
      >
        <Table caption="Class-wise accuracy, every tutor" captionHidden>
          <THead>
            <TR>
              <Th>Judge’s label</Th>
              <Th numeric>Given</Th>
              <Th numeric>Right</Th>
              <Th numeric>Class-wise accuracy</Th>
              <Th>Decision</Th>
            </TR>
          </THead>
          <TBody>
            {data.classes.map((c) => (
              <TR key={c.label}>
                <TD>{c.label}</TD>
                <TD numeric>{count(c.predicted)}</TD>
                <TD numeric>{count(c.correct)}</TD>
                <TD numeric>
                  <Value value={c.classwiseAccuracy} reason={c.classwiseAccuracyReason} kind="rate" interval={c.interval} />
                </TD>
                <TD>{c.decision === 'accept' ? 'accept the judge' : 'send to people'}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      </Card>
      <Card title="Every dimension" padded={false}>
        <Table caption="Hybrid plan per dimension" captionHidden>
          <THead>
            <TR>
              <Th>Dimension</Th>
              {PLAN_HEAD}
            </TR>
          </THead>
          <TBody>
            {dims.map((d) => (
              <TR key={d.criterion}>
                <TD>
                  {d.name}
                  {d.lenient ? <span className="block text-xs text-slate-500">lenient</span> : null}
                </TD>
                <PlanCells p={d} />
              </TR>
            ))}
          </TBody>
        </Table>
      </Card>
      <RubricQueueForm
        studyId={studyId}
        judge={data.judge}
        criterion={data.criterion}
        target={data.target}
        lenient={data.lenient}
        people={people}
        studyOpen={studyOpen}
      />
    </div>
  );
}

function RubricQueueForm(props: {
  studyId: number;
  judge: string;
  criterion: string;
  target: number;
  lenient: boolean;
  people: PersonDto[];
  studyOpen: boolean;
}) {
  const { studyId, judge, criterion, target, lenient, people, studyOpen } = props;
  const [chosen, setChosen] = useState<string[]>([]);
  const [perTutor, setPerTutor] = useState(false);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [pending, start] = useTransition();
  if (!studyOpen) return <p className="text-sm text-slate-500">Open the study to send the routed replies to people.</p>;
  return (
    <Card title="Open a review queue">
      <form
        className="space-y-2"
        aria-label="Open a review queue"
        onSubmit={(e) => {
          e.preventDefault();
          start(async () => {
            const res = await openRubricHybridQueueAction(studyId, { judge, criterion, target, lenient, perTutor, usernames: chosen });
            setMessage(
              res.ok
                ? {
                    tone: 'ok',
                    text: `Queued ${res.data.routed + res.data.extra} repl(ies) (${res.data.routed} routed, ${res.data.extra} random checks): ${res.data.assignments.map((a) => `${a.username} ${a.items}`).join(', ')}.`,
                  }
                : { tone: 'error', text: res.error },
            );
          });
        }}
      >
        <p className="text-sm text-slate-600">
          Send the unreviewed replies this plan routes to people — every reply the judge gave a label the plan does not trust, plus the
          random checks the target needs — to these reviewers (one review each; their reviews become ground truth):
        </p>
        <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <legend className="sr-only">Reviewers</legend>
          {people.map((p) => (
            <label key={p.id} className="flex items-center gap-1.5">
              <input
                type="checkbox"
                checked={chosen.includes(p.username)}
                onChange={(e) => setChosen((c) => (e.target.checked ? [...c, p.username] : c.filter((u) => u !== p.username)))}
              />
              {p.displayName}
            </label>
          ))}
        </fieldset>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={perTutor} onChange={(e) => setPerTutor(e.target.checked)} />
          Follow each tutor’s own plan (its own trusted label and random checks)
        </label>
        <button
          type="submit"
          disabled={pending || chosen.length === 0}
          className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
        >
          {pending ? 'Opening…' : 'Open review queue'}
        </button>
        {message && (
          <p
            role={message.tone === 'error' ? 'alert' : 'status'}
            className={message.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}
          >
            {message.text}
          </p>
        )}
      </form>
    </Card>
  );
}
