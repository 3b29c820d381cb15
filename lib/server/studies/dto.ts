/** The data lib/server/studies hands to pages, components, lib/query, lib/io and the CLI: plain types, no server code. */
import type { GroundTruthRuleChoice } from '@/lib/validation/studies';
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
  /** The page shown, counted from 1. */
  page: number;
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
  /** With the judge filter: that run's overall verdict (from a's side). */
  judgeOverall: Label | null;
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
  /**
   * Agreement between the reviewers per criterion before adjudication, over the items with two or more labels on it:
   * percent agreement as the agreement dashboard defines it (the mean over items of the share of agreeing pairs of
   * labels), and the share of items where every label agrees. The full statistics live on the agreement page.
   */
  agreement: {
    criterion: string;
    name: string;
    items: number;
    agreed: number;
    percentAgreement: number | null;
    unanimous: number | null;
  }[];
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
  groundTruthRule: GroundTruthRuleChoice;
  adjudicator: { userId: number; username: string; displayName: string } | null;
  itemCount: number;
  members: { userId: number; username: string; displayName: string; setIndex: number | null }[];
  seed: number;
  createdAt: string;
  openedAt: string | null;
  deadline: string | null;
  archived: boolean;
  guidelinesVersion: number;
};

export type MyStudyDto = {
  id: number;
  kind: StudyDto['kind'];
  name: string;
  status: StudyDto['status'];
  assigned: number;
  submitted: number;
  isAdjudicator: boolean;
  /** For the study's adjudicator: items whose disagreements are not all settled yet. */
  disagreementsWaiting: number | null;
  deadline: string | null;
  /** The version of the guidelines reviewers see now (1 until a lead edits them). */
  guidelinesVersion: number;
  /** The guidelines changed after this reviewer first worked on an item (saved or submitted): they worked under an earlier version. */
  guidelinesUpdated: boolean;
};

export const RUBRIC_ITEM_STATES = ['waiting', 'labelled', 'disagreement', 'adjudicated'] as const;
export type RubricItemState = (typeof RUBRIC_ITEM_STATES)[number];

export type RubricItemRowDto = {
  itemId: number;
  externalId: string;
  group: string | null;
  source: string | null;
  done: number;
  planned: number;
  state: RubricItemState;
  /** Dimensions the reviewers leave open under the study's rule (ruled or not). */
  disputed: number;
};

export type RubricItemListDto = {
  total: number;
  byState: Record<RubricItemState, number>;
  page: number;
  pages: number;
  pageSize: number;
  rows: RubricItemRowDto[];
};

export type RubricItemDetailDto = {
  itemId: number;
  studyId: number;
  studyName: string;
  /** The item's place in the study and its neighbours there, as on the other kinds' item pages. */
  position: number;
  previousId: number | null;
  nextId: number | null;
  externalId: string;
  group: string | null;
  source: string | null;
  problem: string | null;
  history: { role: 'tutor' | 'student'; text: string }[];
  reply: string | null;
  reviewers: {
    slot: number;
    username: string;
    state: 'pending' | 'submitted';
    note: string | null;
    /** The reviewer's flag reason and comment on the item (leads only), null where none. */
    remarks: ItemRemarksDto;
    /** Every revision they submitted, oldest first, with its label per dimension name (an undone one stays listed). */
    revisions: { revision: number; at: string; labels: Record<string, string> }[];
  }[];
  dimensions: {
    id: string;
    name: string;
    /** Each reviewer's label, by slot as in `reviewers`; null where none. */
    labels: (string | null)[];
    needsAdjudication: boolean;
    ruling: { label: string; rationale: string | null; adjudicator: string } | null;
    /** The ground-truth label once every review is in and the rule settles it; under a label model with its posterior. */
    final: {
      label: string;
      lenient: string;
      provenance: 'agreed' | 'majority' | 'adjudicated' | 'dawid_skene' | 'mace';
      posterior?: number;
    } | null;
    judges: { run: string; sample: number; label: string; rationale: string | null }[];
  }[];
};

export type GuidelineVersionDto = { version: number; guidelines: string; createdAt: string; author: string | null };

export type ReplaceReviewerResultDto = {
  from: string;
  to: string;
  /** Pending assignments handed to `to`. */
  moved: number;
  /** Pending assignments left with `from` because they hold revisions `from` submitted and then undid. */
  keptWithEarlierRevisions: number;
};

/** One row of the studies list: the study, its progress over every reviewer, and whether it is archived. */
export type StudyListRowDto = {
  id: number;
  kind: StudyDto['kind'];
  name: string;
  status: StudyDto['status'];
  archived: boolean;
  items: number;
  assigned: number;
  submitted: number;
  reviewers: string[];
  deadline: string | null;
  createdAt: string;
};

/** One submitted revision of a reviewer on an item: pairwise labels (from reply a's side) or a flow decision. */
export type ItemRevisionDto = {
  revision: number;
  at: string;
  labels: Record<string, Label> | null;
  flow: { decision: 'verify' | 'truncate' | 'discard'; afterStep: number | null; reasons: string[]; note: string | null } | null;
};

export type ItemReviewerDto = {
  slot: number;
  username: string;
  displayName: string;
  state: 'pending' | 'submitted';
  activeSeconds: number;
  submittedAt: string | null;
  /** Pairwise: whether this reviewer saw reply a as Response 1. */
  sawAFirst: boolean;
  /** Oldest first; the newest counts while the assignment is submitted (an undone one counts for nothing). */
  revisions: ItemRevisionDto[];
  remarks: ItemRemarksDto;
};

/** A reviewer's flag (reason and when) and free comment on an item, as its leads see them. */
export type ItemRemarksDto = { flagReason: string | null; flaggedAt: string | null; comment: string | null };

export type PairwiseCriterionDetailDto = {
  id: string;
  name: string;
  level: 'general' | 'principle' | 'overall';
  description: string;
  /** Each reviewer's current label, in the order of `reviewers`; null where none counts yet. */
  labels: (Label | null)[];
  /** The rule's label and how it got there; under a label model (dawid_skene, mace) with the model's posterior. */
  groundTruth: { label: Label; provenance: 'agreed' | 'majority' | 'adjudicated' | 'dawid_skene' | 'mace'; posterior?: number } | null;
  waitsForAdjudicator: boolean;
  rulings: { revision: number; label: Label; rationale: string | null; by: string; at: string }[];
  verdicts: { run: string; label: Label; rationale: string | null; order: 'a first' | 'b first' }[];
};

type ItemDetailBase = {
  studyId: number;
  studyName: string;
  itemId: number;
  externalId: string;
  position: number;
  previousId: number | null;
  nextId: number | null;
  reviewers: ItemReviewerDto[];
};

export type ItemDetailDto =
  | (ItemDetailBase & {
      kind: 'pairwise';
      groundTruthRule: GroundTruthRuleChoice;
      problem: string;
      instructions: string | null;
      principles: string[];
      history: { role: 'tutor' | 'student'; text: string }[];
      replies: { a: { text: string; source: string | null }; b: { text: string; source: string | null } };
      judgeRuns: string[];
      criteria: PairwiseCriterionDetailDto[];
    })
  | (ItemDetailBase & {
      kind: 'flow_review';
      flow: import('@/lib/validation/flow').FlowItem;
      warnings: import('@/lib/validation/flow-warnings').FlowWarning[];
    })
  | { kind: 'rubric'; studyId: number; rubric: RubricItemDetailDto };

/** A study's progress: its items, the reviews assigned (planned) and those submitted. */
export type StudyProgressDto = { items: number; assigned: number; submitted: number };
