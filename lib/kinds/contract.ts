/**
 * The contract every kind of study implements. What is the same for every kind lives in the shared cores
 * (`lib/server/*`, `components/review`); what differs is asked of the kind through this interface, so a new kind
 * (a ranking of N replies, the first wrong step of a solution) is one folder under `lib/kinds/` registered in
 * `registry.ts`, plus its screen panels in the client registry (`components/kinds/registry.ts`).
 *
 * Each facet below is declared in the file that owns it; the kinds' `index.ts` files put their facets together.
 */
import type { StudyKind as StudyKindId } from '@/lib/validation/labels';
import type { ImportsFacet } from './facets/imports';
import type { JudgesFacet } from './facets/judges';
import type { ReportsFacet } from './facets/reports';

export type { StudyKindId };

export interface StudyKindContract {
  id: StudyKindId;
  /** How the kind is named to people: "Flow review", "Pairwise", "Rubric". */
  name: string;
  imports: ImportsFacet;
  /** Null: the kind has no LLM judges (flow review). */
  judges: JudgesFacet | null;
  reports: ReportsFacet;
}
