/** The data lib/server/ground-truth hands to pages, components, lib/query, lib/io and the CLI: plain types, no server code. */
import type { StudyRow } from '@/db/queries/studies';

export type GroundTruthSummaryDto = {
  items: number;
  complete: number;
  incomplete: number;
  labels: number;
  adjudicated: number;
  rule: StudyRow['groundTruthRule'];
};

export type RubricGroundTruthSummaryDto = GroundTruthSummaryDto;
