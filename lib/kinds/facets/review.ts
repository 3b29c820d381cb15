/**
 * The kind-specific part of reviewing. The shared core (`lib/server/review/submit.ts`, `submitAnnotation`) owns the
 * request id and its replay, the access checks, the one immediate transaction and the finishing of the assignment;
 * the kind supplies how its submission is parsed and checked against the item, what is stored, how a taken-back
 * submission turns into a draft again, and how a reviewer knows an item.
 */
import type { ZodType } from 'zod';
import type { Db } from '@/db/client';
import type { AnnotationRow, AssignmentRow } from '@/db/queries/assignments';
import type { StudyRow } from '@/db/queries/studies';
import type { FlowAssignmentDto, JudgeAssignmentDto, RemarksDto, RubricAssignmentDto } from '@/lib/server/review/dto';

/** The annotation row's identity and request, as `insertAnnotation` takes it. */
export type AnnotationBase = { assignmentId: number; requestId: string; requestHash: string; createdBy: number };

/** What differs between the kinds of submission (a flow decision, a pairwise judgment, rubric labels). */
export type SubmissionKind<C extends object> = {
  /**
   * What the request asks for, as it is stored: it is hashed with the assignment id for the request id, so a retry
   * compares equal however its fields were ordered or padded. May reject a request that cannot fit the item.
   */
  content(db: Db, a: AssignmentRow): C;
  /**
   * Writes the annotation of a pending assignment of an open study, or the new revision of one under revision (and
   * its labels); returns its revision.
   */
  write(db: Db, a: AssignmentRow, study: StudyRow, content: C, base: AnnotationBase): number;
};

export type SubmitRequest = { assignmentId: number; requestId: string; activeMs: number };

/** An assignment as its reviewer's screen receives it, in the shape of its study's kind. */
export type AssignmentView = JudgeAssignmentDto | RubricAssignmentDto | (FlowAssignmentDto & { kind: 'flow_review' });

export interface ReviewFacet {
  /**
   * How a reviewer knows an item in their history: by the item's place in the study, or by their own queue
   * position where the file's order must not show (rubric, docs/decisions/0013).
   */
  itemNumber: 'item' | 'queue';
  /** What a reviewer has chosen so far, as the screen saves it while they work (the draft core parses it with this). */
  draftSchema: ZodType;
  /**
   * How a row of the reviewer's history names the item besides its number: `id` shows the item's own id where the
   * review screen shows it too (a flow's id), never where it could name a source (a rubric reply's id carries its
   * tutor); `text` heads the column of the item's problem, or for an item without one, the reply that was judged.
   */
  history: { id: boolean; text: 'Problem' | 'Reply' };
  /** Parses a submission with the kind's schema (an `invalid` error otherwise): the request and what to store. */
  parseSubmission(input: unknown): { request: SubmitRequest; submission: SubmissionKind<object> };
  /**
   * The assignment as its reviewer sees it (the core has checked that it is theirs and marked it served): the item
   * as the kind blinds it, their draft and submission, with the `remarks` the core read.
   */
  view(db: Db, study: StudyRow, a: AssignmentRow, context: { actorId: number; remarks: RemarksDto }): AssignmentView;
  /** The draft a submission turns back into when it is taken back (undo, or revising it from the history). */
  draftOf(db: Db, study: StudyRow, a: AssignmentRow, annotation: AnnotationRow | undefined): unknown;
}

/** A submission kind with its content's type kept for `write` (and erased for the facet's callers). */
export const defineSubmission = <C extends object>(kind: SubmissionKind<C>): SubmissionKind<object> => kind as SubmissionKind<object>;
