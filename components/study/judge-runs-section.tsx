import type { ReactNode } from 'react';
import { CombineRunsForm } from '@/components/judges/combine-runs-form';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import { combineRunsAction } from '@/app/(app)/studies/actions';
import { JudgeRunsTable } from './judge-runs-table';
import { Section } from './section';

/**
 * The "Judge runs" section of a study's overview, for every kind that takes judge runs: the runs, the kind's own
 * way to add one (`children`, an import panel where the kind has one) and the form that combines runs.
 */
export function JudgeRunsSection({
  studyId,
  runs,
  countLabel,
  kind,
  children,
}: {
  studyId: number;
  runs: JudgeRunDto[];
  /** What a run holds, as the table's heading says it: "Verdicts", "Labels". */
  countLabel: string;
  kind: 'pairwise' | 'rubric';
  children?: ReactNode;
}) {
  return (
    <Section title="Judge runs">
      <JudgeRunsTable runs={runs} countLabel={countLabel} />
      {children}
      <CombineRunsForm studyId={studyId} runs={runs.map((r) => r.name)} kind={kind} action={combineRunsAction} />
    </Section>
  );
}
