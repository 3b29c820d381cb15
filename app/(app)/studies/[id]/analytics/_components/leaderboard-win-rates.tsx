import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { cn } from '@/components/ui/cn';
import type { ReportJson } from '@/lib/query/analytics';
import { type LeaderboardReportDto, REPORT_SPECS, graderName, leaderboardPrinciples } from '@/lib/server/analytics/dto';
import { CorrectedLeaderboard, RankAgreement } from './certify-leaderboard';
import { TIE_POLICIES, policyText } from './format';
import { IntervalsPanel } from './intervals-panel';
import { StatTable, specColumns } from './stat-table';
import { INTERVAL_REPLICATES } from './use-report';
import type { CriterionInfo, Own, Shown } from './leaderboard-parts';

/*
 * The pairwise leaderboard's own cards (leaderboard-parts.tsx): KMP-Bench win rates and accuracies per model and
 * grader with their criteria, the judge-corrected scores and the rank agreement, and the tie-policy control.
 */

type Pairwise = ReportJson['leaderboard'];

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
  // The tables are the report's column specs, as the CSV and `concord report leaderboard` write them; the model
  // heads its rows, and the levels a catalog without general criteria cannot average are left out.
  const { leaderboard: board, criteria: perCriterion } = REPORT_SPECS.leaderboard;
  const shape = data as unknown as LeaderboardReportDto;
  const hiddenOnBoard = ['model', ...(general ? [] : ['generalLevelAcc', 'overallAcc'])];
  const criterionName = (id: string) => criteria.find((c) => c.id === id)?.name ?? id;
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
              description={<>KMP-Bench Tables 1 and 3, per model and grader. {policyLabel('tie-policy-label')}</>}
              actions={csv('leaderboard')}
              padded={false}
            >
              <p className="px-4 py-3 text-sm text-slate-600">
                Each model’s reply a is scored against reply b, graded by the human ground truth and by every judge run. Win rates of reply
                a; General-Level Acc is the mean of the general criteria, each Principle-Level Acc the mean of that principle’s criteria,
                and Overall Acc = ½ (General-Level Acc + mean of the Principle-Level Accs). The alignment rate is the share of the model’s
                ground-truth labels the judge matched.
              </p>
              <StatTable
                caption={`Leaderboard per model and grader, ties counted as: ${policyText(data.tiePolicy)}`}
                testId="leaderboard-table"
                wrapperClassName="rounded-none border-0"
                columns={specColumns(board.columns(shape).filter((c) => !hiddenOnBoard.includes(c.id)))}
                rows={board.rows(shape)}
                rowKey={board.rowKey}
                rowTestId="leaderboard-row"
                groupBy={{ key: (r) => r.model, label: (r) => r.model }}
              />
              {!general ? (
                <p className="px-4 py-2 text-xs text-slate-500" data-testid="no-general-level">
                  This study has no general-level criteria, so there is no General-Level Acc nor Overall Acc (which averages it with the
                  Principle-Level Accs): Overall Judgement is each model’s score.
                </p>
              ) : null}
              {leaderboardPrinciples(data).length === 0 ? (
                <p className="px-4 py-2 text-xs text-slate-500">
                  This study has no principle-level criteria, so there is no Principle-Level Acc.
                </p>
              ) : null}
            </Card>

            <Card
              title="Win rate per criterion"
              description={<>Wins, ties and losses of reply a, per model and grader. {policyLabel()}.</>}
              actions={csv('criteria')}
              padded={false}
            >
              <StatTable
                caption={`Win rate per criterion, ties counted as: ${policyText(data.tiePolicy)}`}
                testId="criteria-table"
                wrapperClassName="rounded-none border-0"
                columns={specColumns(perCriterion.columns.filter((c) => c.id !== 'model' && c.id !== 'grader'))}
                rows={perCriterion.rows(shape).map((r) => ({ ...r, criterion: criterionName(r.criterion) }))}
                rowKey={perCriterion.rowKey}
                groupBy={{ key: (r) => `${r.model}\u0000${r.grader}`, label: (r) => `${r.model} · ${graderName(r.grader)}` }}
              />
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

/* ----- rubric: the share of desired labels per tutor ----- */
