/** The data lib/server/ground-truth hands to pages, components, lib/query, lib/io and the CLI: plain types, no server code. */
import type { StudyRow } from '@/db/queries/studies';
import type { Label } from '@/lib/validation/labels';
import type { Provenance } from './rule';

export type { Provenance };

export type GroundTruthSummaryDto = {
  items: number;
  complete: number;
  incomplete: number;
  labels: number;
  adjudicated: number;
  rule: StudyRow['groundTruthRule'];
};

export type RubricGroundTruthSummaryDto = GroundTruthSummaryDto;

/** How one label of the ground truth was settled, the same for every kind (the export's shared columns). */
export type SettledLabelDto = {
  provenance: Provenance;
  /** Under a model rule (dawid_skene, mace), the model's posterior probability of `label`; null otherwise. */
  posterior: number | null;
  /** Each reviewer's label by slot (Reviewer 1 first); null where a reviewer gave none. */
  reviewers: (string | null)[];
  adjudicator: string | null;
  rationale: string | null;
};

/** One criterion of one item of a pairwise study, settled by the ground-truth rule. */
export type GroundTruthRow = SettledLabelDto & {
  item: string;
  itemId: number;
  criterion: string;
  label: Label;
  reviewers: (Label | null)[];
};

/** One dimension of one item of a rubric study, settled by the ground-truth rule. Labels by name. */
export type RubricGroundTruthRow = SettledLabelDto & {
  item: string;
  itemId: number;
  group: string | null;
  /** Who wrote the reply (the study's lead sees it; reviewers never do). */
  source: string | null;
  dimension: string;
  label: string;
  /** The label after the dimension's lenient folding (the same label where the dimension has none). */
  lenient: string;
};
