/** The data lib/server/studies hands to pages, components, lib/query, lib/io and the CLI: plain types, no server code. */
import type { GroundTruthSummaryDto } from '../ground-truth/dto';
import type { Label } from '@/lib/validation/labels';
import type { Criterion } from '@/lib/validation/pairwise';
import type { RubricDimension } from '@/lib/validation/rubric';

export type FlowReportDto = {
  studyId: number;
  items: number;
  assigned: number;
  submitted: number;
  verified: number;
  truncated: number;
  discarded: number;
  discardReasons: Record<string, number>;
  payRateCents: number;
  reviewers: {
    username: string;
    displayName: string;
    assigned: number;
    submitted: number;
    activeSeconds: number;
    /** Submitted items per hour of active time; null before any active time was recorded. */
    itemsPerHour: number | null;
    /** submitted × pay rate, in currency units. */
    payout: number;
  }[];
  perDay: { day: string; username: string; n: number }[];
};

export type FlowListDto = {
  total: number;
  rows: {
    itemId: number;
    externalId: string;
    stepCount: number | null;
    reviewers: string[];
    decisions: string[];
    state: 'done' | 'pending';
  }[];
};

export const ITEM_STATES = ['waiting', 'judged', 'disagreement', 'adjudicated'] as const;

export type ItemState = (typeof ITEM_STATES)[number];

export type PairwiseItemRowDto = {
  itemId: number;
  externalId: string;
  principles: string[];
  sourceA: string | null;
  sourceB: string | null;
  /** Reviews submitted / reviews planned (assignments made; before the study opens, the reviewers per item). */
  done: number;
  planned: number;
  state: ItemState;
  /** The ground-truth overall label (from a's side) once the item is complete, else null. */
  overall: Label | null;
};

export type PairwiseItemListDto = {
  /** Items matching the filters. */
  total: number;
  /** Items matching the text search, by state (so the state filter can show what each choice holds). */
  byState: Record<ItemState, number>;
  page: number;
  pages: number;
  pageSize: number;
  rows: PairwiseItemRowDto[];
};

export type PairwiseReportDto = {
  studyId: number;
  items: number;
  assigned: number;
  submitted: number;
  reviewers: {
    username: string;
    displayName: string;
    set: number | null;
    assigned: number;
    submitted: number;
    activeSeconds: number;
    payout: number;
  }[];
  sets: { set: number; reviewers: string[]; items: number; complete: number }[];
  adjudication: { adjudicator: string | null; disagreeingItems: number; settled: number; open: number };
  /** Raw agreement between the reviewers per criterion (before adjudication); the full statistics live on the agreement page. */
  agreement: { criterion: string; name: string; items: number; agreed: number; rate: number | null }[];
  groundTruth: GroundTruthSummaryDto;
};

export type StudyDto = {
  id: number;
  kind: 'flow_review' | 'pairwise' | 'rubric';
  name: string;
  guidelines: string;
  status: 'draft' | 'open' | 'closed';
  payRateCents: number;
  reviewersPerItem: number;
  principles: string[];
  criteria: Criterion[];
  /** A rubric study's dimensions (its fixed catalog, labels worst first); null for other kinds. */
  dimensions: RubricDimension[] | null;
  assignmentMode: 'balanced' | 'fixed_sets';
  groundTruthRule: 'adjudicated' | 'majority';
  adjudicator: { userId: number; username: string; displayName: string } | null;
  itemCount: number;
  members: { userId: number; username: string; displayName: string; setIndex: number | null }[];
  seed: number;
  createdAt: string;
  openedAt: string | null;
};

export type MyStudyDto = {
  id: number;
  kind: StudyDto['kind'];
  name: string;
  status: StudyDto['status'];
  assigned: number;
  submitted: number;
  isAdjudicator: boolean;
};
