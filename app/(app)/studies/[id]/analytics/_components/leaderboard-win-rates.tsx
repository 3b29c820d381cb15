import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { cn } from '@/components/ui/cn';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import type { ReportJson } from '@/lib/query/analytics';
import { CorrectedLeaderboard, RankAgreement } from './certify-leaderboard';
import { TIE_POLICIES, count, policyText } from './format';
import { IntervalsPanel } from './intervals-panel';
import { Th } from './th';
import { INTERVAL_REPLICATES } from './use-report';
import { Value } from './value';
import type { CriterionInfo, Own, Shown } from './leaderboard-parts';

/*
 * The pairwise leaderboard's own cards (leaderboard-parts.tsx): KMP-Bench win rates and accuracies per model and
 * grader with their criteria, the judge-corrected scores and the rank agreement, and the tie-policy control.
 */

type Pairwise = ReportJson['leaderboard'];
type Row = Pairwise['rows'][number];

const GROUND_TRUTH = 'ground truth';

/** The labels behind the report: up to AUTO_BOOTSTRAP_MAX_LABELS its intervals are computed without asking. */
export const labelCount = (data: Pairwise) =>
  data.rows.reduce((s, r) => s + Object.values(r.counts).reduce((t, c) => t + c.win + c.tie + c.loss, 0), 0);

export function TiePolicyControl({ params, set }: Shown<'leaderboard'>) {
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium text-slate-800">Tie policy</legend>
      <div className="inline-flex rounded-md border border-slate-300 bg-white p-0.5 shadow-sm">
        {TIE_POLICIES.map((t) => (
          <label
            key={t.value}
            className={cn(
              'cursor-pointer rounded px-3 py-1.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent-500',
              params.tiePolicy === t.value ? 'bg-accent-600 text-white' : 'text-slate-700 hover:bg-slate-100',
            )}
          >
            <input
              type="radio"
              name="tie-policy"
              value={t.value}
              checked={params.tiePolicy === t.value}
              onChange={() => set({ ...params, tiePolicy: t.value })}
              className="sr-only"
            />
            {t.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function PairwiseCards({ data, params, set, criteria, csv, error, retry }: Own<'leaderboard'>) {
  const labels = labelCount(data);
  const stale = data.tiePolicy !== params.tiePolicy;
  const named = withCriterionNames(data, criteria);
  // Without general-level criteria (PandaLM judges only the overall verdict) General-Level and Overall Acc have
  // nothing to average: one line says so instead of a column of n/a.
  const general = criteria.some((c) => c.level === 'general');
  const models = new Set(data.rows.map((r) => r.model)).size;
  const principles = [...new Set(data.rows.flatMap((r) => Object.keys(r.principleLevelAcc)))];
  const shownCriteria = criteria.filter((c) => data.rows.some((r) => c.id in r.counts));
  const firstOfModel = (i: number) => i === 0 || data.rows[i - 1].model !== data.rows[i].model;
  const rowsOfModel = (model: string) => data.rows.filter((r) => r.model === model).length;
  const policyLabel = (testId?: string) => (
    <span data-testid={testId} className="font-normal">
      Tie policy: <strong>{policyText(data.tiePolicy)}</strong>
    </span>
  );
  return (
    <>
      {data.rows.every((r) => r.items === 0) ? (
        <EmptyState
          title="Nothing graded yet"
          description="No item has a ground-truth label or a judge verdict yet. The leaderboard fills in as reviews are settled and judge runs are imported."
        />
      ) : (
        <>
          <IntervalsPanel
            requested={params.bootstrap ?? 0}
            computed={data.bootstrap}
            labels={labels}
            what="the means (General-Level, Principle-Level and Overall Acc), with ties counted ½ the win rates, and the rank agreement (τ-b, ρ)"
            error={error}
            onCompute={() => set({ ...params, bootstrap: INTERVAL_REPLICATES })}
            onRetry={retry}
          />

          <div className={stale ? 'space-y-5 opacity-50' : 'space-y-5'} aria-busy={stale || undefined}>
            <Card
              title="Leaderboard"
              description="KMP-Bench Tables 1 and 3, per model and grader."
              actions={csv('leaderboard')}
              padded={false}
            >
              <p className="px-4 pt-3 text-sm text-slate-600">
                Each model’s reply a is scored against reply b, graded by the human ground truth and by every judge run. Win rates of reply
                a; General-Level Acc is the mean of the general criteria, each Principle-Level Acc the mean of that principle’s criteria,
                and Overall Acc = ½ (General-Level Acc + mean of the Principle-Level Accs). The alignment rate is the share of the model’s
                ground-truth labels the judge matched.
              </p>
              <Table
                caption={<>Leaderboard per model and grader — {policyLabel('tie-policy-label')}</>}
                wrapperClassName="rounded-none border-0"
                data-testid="leaderboard-table"
                data-tie-policy={data.tiePolicy}
              >
                <THead>
                  <TR>
                    <Th>Model</Th>
                    <Th>Grader</Th>
                    <Th numeric>Items</Th>
                    <Th numeric>Overall Judgement</Th>
                    {general ? <Th numeric>General-Level Acc</Th> : null}
                    {principles.map((p) => (
                      <Th key={p} numeric>
                        <span className="block text-[10px] font-normal text-slate-500">Principle-Level Acc</span>
                        {p}
                      </Th>
                    ))}
                    {general ? <Th numeric>Overall Acc</Th> : null}
                    <Th numeric>Alignment rate</Th>
                  </TR>
                </THead>
                <TBody>
                  {data.rows.map((r, i) => (
                    <TR
                      key={`${r.model}\u0000${r.grader}`}
                      className={r.grader === GROUND_TRUTH ? 'bg-slate-50/70' : undefined}
                      data-testid="leaderboard-row"
                    >
                      {firstOfModel(i) ? (
                        <th
                          scope="rowgroup"
                          rowSpan={rowsOfModel(r.model)}
                          className="px-3 py-2 text-left align-top text-sm font-medium whitespace-nowrap text-slate-900"
                        >
                          {r.model}
                        </th>
                      ) : null}
                      <TD className={r.grader === GROUND_TRUTH ? 'font-medium whitespace-nowrap' : 'whitespace-nowrap'}>
                        {r.grader === GROUND_TRUTH ? 'Ground truth' : r.grader}
                      </TD>
                      <TD numeric>{count(r.items)}</TD>
                      <TD numeric>
                        <Value
                          value={r.overallJudgement}
                          reason={r.overallJudgementReason}
                          kind="rate"
                          interval={r.intervals.overallJudgement}
                          testId="overall-judgement"
                        />
                      </TD>
                      {general ? (
                        <TD numeric>
                          <Value
                            value={r.generalLevelAcc}
                            reason={r.generalLevelAccReason}
                            kind="rate"
                            interval={r.intervals.generalLevelAcc}
                          />
                        </TD>
                      ) : null}
                      {principles.map((p) => (
                        <TD key={p} numeric>
                          <Value
                            value={r.principleLevelAcc[p] ?? null}
                            reason={p in r.principleLevelAcc ? r.principleLevelAccReasons?.[p] : 'no_items'}
                            kind="rate"
                            interval={r.intervals.principleLevelAcc[p]}
                          />
                        </TD>
                      ))}
                      {general ? (
                        <TD numeric>
                          <Value value={r.overallAcc} reason={r.overallAccReason} kind="rate" interval={r.intervals.overallAcc} />
                        </TD>
                      ) : null}
                      <TD numeric>
                        <Value value={r.alignmentRate} reason={r.alignmentRateReason} kind="rate" interval={r.intervals.alignmentRate} />
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
              {!general ? (
                <p className="px-4 py-2 text-xs text-slate-500" data-testid="no-general-level">
                  This study has no general-level criteria, so there is no General-Level Acc nor Overall Acc (which averages it with the
                  Principle-Level Accs): Overall Judgement is each model’s score.
                </p>
              ) : null}
              {principles.length === 0 ? (
                <p className="px-4 py-2 text-xs text-slate-500">
                  This study has no principle-level criteria, so there is no Principle-Level Acc.
                </p>
              ) : null}
            </Card>

            <Card
              title="Win rate per criterion"
              description={<>Under each rate: wins / ties / losses of reply a. {policyLabel()}.</>}
              actions={csv('criteria')}
              padded={false}
            >
              <Table
                caption={<>Win rate per criterion — {policyLabel()}</>}
                captionHidden
                wrapperClassName="rounded-none border-0"
                data-testid="criteria-table"
              >
                <THead>
                  <TR>
                    <Th>Model · grader</Th>
                    {shownCriteria.map((c) => (
                      <Th key={c.id} numeric className="min-w-28">
                        {c.name}
                      </Th>
                    ))}
                  </TR>
                </THead>
                <TBody>
                  {data.rows.map((r) => (
                    <TR key={`${r.model}\u0000${r.grader}`}>
                      <TD className="whitespace-nowrap">
                        <span className="font-medium">{r.model}</span>
                        <span className="block text-xs text-slate-500">{r.grader === GROUND_TRUTH ? 'Ground truth' : r.grader}</span>
                      </TD>
                      {shownCriteria.map((c) => (
                        <CriterionCell key={c.id} row={r} id={c.id} />
                      ))}
                    </TR>
                  ))}
                </TBody>
              </Table>
            </Card>

            {nothingToCorrect(data) ? (
              <Card title="Judge-corrected win rates" data-testid="corrected-card">
                <p className="text-sm text-slate-600" data-testid="corrected-none">
                  Nothing to correct: people labelled every item the judge runs judged, so the ground truth’s win rates above are the
                  answer. A corrected rate appears for a judge run that also covers items people have not labelled.
                </p>
              </Card>
            ) : (
              <CorrectedLeaderboard data={named} csv={csv('corrected')} />
            )}
            {models < 2 ? (
              <Card title="Rank agreement" data-testid="rank-card">
                <p className="text-sm text-slate-600" data-testid="rank-none">
                  Rank agreement compares how a judge and people order the models; it needs two or more models with reply a, and this study
                  has {models === 1 ? `one (${data.rows[0].model})` : 'none'}.
                </p>
              </Card>
            ) : (
              <RankAgreement data={named} csv={csv('ranks')} />
            )}
          </div>
        </>
      )}
    </>
  );
}

/** Every judge-corrected cell is empty because every judged item already has ground truth (PandaLM's demo). */
const nothingToCorrect = (data: Pairwise) =>
  data.corrected.length > 0 &&
  data.corrected.every((run) => run.cells.every((c) => c.corrected === null && c.correctedReason === 'no_unlabelled_items'));

/**
 * The report with each criterion's name where the cards below print its id (a corrected cell's criterion, a rank
 * agreement's scope): the report keys rows by id, a reader knows the criteria by name.
 */
function withCriterionNames(data: Pairwise, criteria: CriterionInfo[]): Pairwise {
  const name = (id: string) => criteria.find((c) => c.id === id)?.name ?? id;
  return {
    ...data,
    corrected: data.corrected.map((run) => ({ ...run, cells: run.cells.map((c) => ({ ...c, criterion: name(c.criterion) })) })),
    rankAgreement: data.rankAgreement.map((r) => (r.scope === 'overallAcc' ? r : { ...r, scope: name(r.scope) })),
  };
}

function CriterionCell({ row, id }: { row: Row; id: string }) {
  const c = row.counts[id];
  return (
    <TD numeric>
      <Value
        value={row.perCriterion[id] ?? null}
        reason={id in row.perCriterion ? row.perCriterionReasons?.[id] : 'no_items'}
        kind="rate"
        interval={row.intervals.perCriterion[id]}
      />
      {c ? (
        <span className="block text-xs text-slate-500" title="wins / ties / losses">
          {c.win}/{c.tie}/{c.loss}
        </span>
      ) : null}
    </TD>
  );
}

/* ----- rubric: the share of desired labels per tutor ----- */
