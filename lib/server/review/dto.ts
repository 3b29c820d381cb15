/** The data lib/server/review hands to pages, components, lib/query, lib/io and the CLI: plain types, no server code. */
import type { FlowItem } from '@/lib/validation/flow';
import type { flowWarnings } from '@/lib/validation/flow-warnings';
import type { JudgmentDraft } from '@/lib/validation/judging';
import type { FlowDraft } from '@/lib/validation/review';

export type AdjudicationQueueDto = {
  studyId: number;
  kind: string;
  studyName: string;
  status: string;
  /** Items whose reviewers disagree on at least one criterion. */
  total: number;
  resolved: number;
  currentItemId: number | null;
  nextItemId: number | null;
  /** In a rubric study, `itemId` is the item's number and `position` its place in this list (decision 0013). */
  items: { itemId: number; position: number; disagreements: number; resolved: number }[];
};

export type AdjudicationCriterionDto = CriterionDto & {
  /** Each reviewer's choice in the adjudicator's display order, as "Reviewer 1", "Reviewer 2", … */
  reviewers: ScreenChoice[];
  agreed: boolean;
  /** The adjudicator's current ruling, if any, in their display order. */
  ruling: ScreenChoice | null;
  rationale: string | null;
};

export type AdjudicationItemDto = Omit<BlindItemDto, 'criteria'> & {
  kind: 'adjudication';
  studyId: number;
  criteria: AdjudicationCriterionDto[];
  reviewerCount: number;
};

export type ScreenChoice = 'r1' | 'tie' | 'r2';

export type FlowDecisionDto = { decision: 'verify' | 'truncate' | 'discard'; afterStep?: number; reasons?: string[]; note?: string };

export type FlowAssignmentDto = {
  assignmentId: number;
  studyId: number;
  queuePosition: number;
  state: 'pending' | 'submitted';
  externalId: string;
  flow: FlowItem;
  warnings: ReturnType<typeof flowWarnings>;
  draft: FlowDraft | null;
  submitted: FlowDecisionDto | null;
  activeMs: number;
  remarks: RemarksDto;
};

export type QueueDto = {
  studyId: number;
  studyName: string;
  kind: string;
  guidelines: string;
  status: string;
  total: number;
  submitted: number;
  currentId: number | null;
  nextId: number | null;
  /** The pending assignments after the current one, in queue order (a few): the screen can move on before the server answers. */
  upcomingIds: number[];
  /** The reviewer's most recent submission, which `u` can take back while the study is open. */
  undoableId: number | null;
  /**
   * The submissions the reviewer is revising (from their history), which come first in the queue: each still counts,
   * as submitted at `submittedAt`, until its new revision is submitted.
   */
  revising: RevisingDto[];
};

/** A submitted assignment under revision, and when the submission that still counts was made. */
export type RevisingDto = { assignmentId: number; submittedAt: string; revision: number };

/** Where a reviewer stands in a study: counts, the pending assignments ahead, what `u` would undo. */
export type QueueStateDto = Pick<
  QueueDto,
  'status' | 'total' | 'submitted' | 'currentId' | 'nextId' | 'upcomingIds' | 'undoableId' | 'revising'
>;

export type CriterionDto = {
  id: string;
  name: string;
  description: string;
  aspects: string[];
  level: 'general' | 'principle' | 'overall';
  principle?: string;
};

/** What a judge or adjudicator may see of an item: no source, no external id (ids can name models), no judge labels. */
export type BlindItemDto = {
  itemId: number;
  position: number;
  problem: string;
  instructions: string | null;
  principles: string[];
  history: { role: 'tutor' | 'student'; text: string }[];
  /** In this person's display order: Response 1, Response 2. */
  responses: [string, string];
  criteria: CriterionDto[];
};

export type JudgeAssignmentDto = BlindItemDto & {
  kind: 'pairwise';
  assignmentId: number;
  studyId: number;
  queuePosition: number;
  state: 'pending' | 'submitted';
  draft: JudgmentDraft | null;
  submitted: Record<string, ScreenChoice> | null;
  activeMs: number;
  remarks: RemarksDto;
};

/** What the reviewer has said about an item besides their labels: only ever their own. */
export type RemarksDto = { flagReason: string | null; comment: string | null };

/** One of the reviewer's own submissions in their history: no external id, no source, nothing of other reviewers. */
export type SubmissionSummaryDto = {
  assignmentId: number;
  /** The item's number in the study, as the review screen shows it ("Item 12"). */
  position: number;
  /** The item's own id where its review screen shows it too (a flow's id); null otherwise. */
  itemName: string | null;
  /** The start of the item's problem, or of the reply judged for an item without one (a rubric reply). */
  problem: string | null;
  submittedAt: string;
  revision: number;
};

export type SubmissionHistoryDto = {
  studyId: number;
  studyName: string;
  kind: string;
  /** The heading of the items' text column: their problem, or the reply judged (rubric). */
  textHeading: 'Problem' | 'Reply';
  /** How many submissions match the search (all of them without one). */
  total: number;
  /** The page shown, counted from 1 in pages of the asked size. */
  page: number;
  items: SubmissionSummaryDto[];
};

/** A flagged item as the study's leads see it on the study page. */
export type FlaggedItemDto = {
  assignmentId: number;
  itemId: number;
  position: number;
  externalId: string;
  reviewer: string;
  reason: string;
  flaggedAt: string;
  comment: string | null;
  /** Whether the reviewer has submitted the item since (a flag does not hold back the labels). */
  submitted: boolean;
};

/** One of the reviewer's own submissions, opened from their history. */
export type MySubmissionDto = {
  studyId: number;
  studyName: string;
  assignmentId: number;
  submittedAt: string;
  revision: number;
  /** Whether it can still be revised: the study is open and no adjudicator has ruled on the item. */
  editable: boolean;
  view: (FlowAssignmentDto & { kind: 'flow_review' }) | JudgeAssignmentDto | RubricAssignmentDto;
};

/** A rubric dimension as a reviewer sees it: its labels worst first, by name. */
export type RubricDimensionDto = { id: string; name: string; description: string | null; labels: string[] };

/**
 * What a reviewer or adjudicator may see of a rubric item: the dialogue and the reply's text, never its `source`,
 * the external id (ids can name the tutor) or the group key, nor any judge verdict.
 */
export type BlindRubricItemDto = {
  /** The item's number for reviewers and the adjudicator, not its row id, which follows the file (decision 0013). */
  itemId: number;
  /** "Item N": the reviewer's own queue position, or the place in the adjudicator's queue; never the file position. */
  position: number;
  problem: string | null;
  history: { role: 'tutor' | 'student'; text: string }[];
  /** The reply under review; null when the whole dialogue is what is judged. */
  reply: string | null;
  dimensions: RubricDimensionDto[];
};

export type RubricAssignmentDto = BlindRubricItemDto & {
  kind: 'rubric';
  assignmentId: number;
  studyId: number;
  queuePosition: number;
  state: 'pending' | 'submitted';
  /**
   * Where this reply stands among the replies to the same dialogue in the reviewer's queue ("reply 2 of 8"), and a
   * number the screen uses to keep the dialogue in view while it stays the same (the reviewer's first assignment of
   * the group: says nothing about the item). Null for an item without a group.
   */
  group: { index: number; count: number; anchor: number } | null;
  draft: { labels: Record<string, string>; focus?: number; note?: string } | null;
  submitted: { labels: Record<string, string>; note: string | null } | null;
  activeMs: number;
  remarks: RemarksDto;
};

export type RubricAdjudicationDimensionDto = RubricDimensionDto & {
  /** Each reviewer's label as "Reviewer 1", "Reviewer 2", …; null where a reviewer gave none. */
  reviewers: (string | null)[];
  agreed: boolean;
  /** The label the ground-truth rule settles on without a ruling (all agree, or a majority under the majority rule). */
  settled: string | null;
  ruling: string | null;
  rationale: string | null;
};

export type RubricAdjudicationItemDto = Omit<BlindRubricItemDto, 'dimensions'> & {
  kind: 'rubric-adjudication';
  studyId: number;
  /** Disagreeing dimensions first, then the settled ones; catalog order within each. */
  dimensions: RubricAdjudicationDimensionDto[];
  reviewerCount: number;
};

/** Gold items (docs/decisions/0030), for leads only: nothing here ever reaches a reviewer. */
export type GoldItemDto = {
  itemId: number;
  /** The units a gold label may name, each with its labels in the kind's names. */
  units: { id: string; labels: string[] }[];
  /** The item's current gold labels by unit; empty when the item is not gold. */
  labels: Record<string, string>;
};

/** A gold item as the lead's items page lists it. */
export type GoldListItemDto = { itemId: number; externalId: string; labels: Record<string, string> };

export type GoldSettingsDto = { ratePct: number; alertBelowPct: number | null };

export type GoldReviewerDto = {
  userId: number;
  username: string;
  displayName: string | null;
  /** Gold items the reviewer answered, and gold units compared (a criterion, a dimension, a decision each). */
  items: number;
  compared: number;
  correct: number;
  /** correct / compared; null (with `accuracyReason`) without comparisons. */
  accuracy: number | null;
  accuracyReason?: 'no_items';
  /** The 95 % Wilson interval of the accuracy, as the report tables read it. */
  intervals: { accuracy: { method: 'wilson'; lower: number | null; upper: number | null; reason?: 'no_items' } };
  /** The accuracy is under the lead's threshold. */
  below: boolean;
};

export type GoldAccuracyDto = GoldSettingsDto & {
  studyId: number;
  goldItems: number;
  reviewers: GoldReviewerDto[];
};
