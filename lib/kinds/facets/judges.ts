/**
 * What a kind of study contributes to running and combining LLM judges. The shared cores in `lib/server/judges/`
 * own planning, the runner's process, the answer cache, batching, retries and the messages; they ask the kind only
 * for what differs: what is judged on an item, which template placeholders an item fills, how a read answer becomes
 * stored labels, and which combination rules its labels allow. A kind without judges (flow review) has none.
 */
import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import type { RenderContext } from '@/lib/validation/judge-template';
import type { JudgeRules } from './judge-rules';

/** What a template can judge on an item: a criterion or a dimension, with the labels a verdict on it is read against. */
export type Judged = { id: string; name: string; description: string; aspects: readonly string[]; labels: readonly string[] };

export interface JudgesFacet {
  /**
   * Everything the study judges on `item`, in the study's order. Absent: the study's criteria that apply to the
   * item (its catalog per item, `criteriaForItem` of the review), read as first / second / tie by the core.
   */
  judgedOn?(study: StudyRow, item: unknown): Judged[];
  /** The labels a verdict on `criterion` is read against. */
  labelsOf(study: StudyRow, criterion: string): readonly string[];
  /** The template placeholders one item fills, in the order sent (`swapped`), besides the criterion and its labels. */
  prompt(item: unknown, swapped: boolean): Omit<RenderContext, 'criterion' | 'labels'>;
  /** The labels stored for the verdicts read from one answer (pairwise: turned to reply a's side). */
  stored(read: Record<string, string>, swapped: boolean): Record<string, string>;
  /** Writes one request's stored labels as verdicts of the run. */
  storeVerdicts(
    db: Db,
    study: StudyRow,
    runId: number,
    r: { itemId: number; sample: number; swapped: boolean },
    verdicts: Record<string, string>,
  ): void;
  /** Orders, samples and combination rules, as data (`lib/kinds/<kind>/judge-rules.ts`, read by the screens too). */
  rules: JudgeRules;
  /**
   * How a run's verdicts are set beside the settled ground truth, for worked examples from its disagreements and
   * the comparison of runs that leaves those items out (decisions 0033, 0042): `criteria`, the pairwise alignment
   * report's verdicts per criterion in the order a, b; `dimensions`, one sample's label codes per rubric dimension,
   * scored strict and lenient. The readers are `lib/server/judges/graded.ts`'s (a kind may not import the analytics
   * loaders). Absent: the kind's templates carry no worked examples.
   */
  grading?: JudgeGrading;
}

export type JudgeGrading = 'criteria' | 'dimensions';
