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
import type { AdjudicationFacet } from './facets/adjudication';
import type { CatalogFacet } from './facets/catalog';
import type { LabelsFacet } from './facets/labels';
import type { ReviewFacet } from './facets/review';
import type { GoldFacet } from './facets/gold';
import type { GroundTruthFacet } from './facets/ground-truth';

export type { StudyKindId };

export interface StudyKindContract {
  id: StudyKindId;
  /** How the kind is named to people: "Flow review", "Pairwise", "Rubric". */
  name: string;
  imports: ImportsFacet;
  /** Null: the kind has no LLM judges (flow review). */
  judges: JudgesFacet | null;
  reports: ReportsFacet;
  /** What a study of the kind judges items on (criteria, dimensions, nothing), as stored and shown. */
  catalog: CatalogFacet;
  /** The kind-specific part of adjudication; null for a kind whose items are not adjudicated. */
  adjudication: AdjudicationFacet | null;
  /** How the kind's labels are packed; null for a kind without packed labels (flow review). */
  labels: LabelsFacet | null;
  /** How a submission is parsed, checked and stored, and how a reviewer knows an item. */
  review: ReviewFacet;
  /** What a gold item's known answer is made of, and reviewers' answers on gold items (decision 0030). */
  gold: GoldFacet;
  /** The ground-truth export's own columns of the kind; null for a kind without ground truth (flow review). */
  groundTruth: GroundTruthFacet | null;
}
