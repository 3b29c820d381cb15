import { z } from 'zod';
// Before any schema is built: in the browser, zod must not try `new Function` (lib/validation/common.ts, which
// lib/validation/review.ts loads first).
import { activeMs, requestId } from '@/lib/validation/review';

/*
 * What a rubric screen sends: labels by dimension id and label name, as on screen. Names are checked against the
 * study's own catalog by the rubric's review and adjudication facets (./review.ts, ./adjudication.ts), where the
 * catalog is known. The parts every kind's submission shares (request id, active time) are lib/validation/review.ts'.
 */

const dimensionKey = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/)
  .max(64);
const labelName = z.string().min(1).max(100);
const labels = z.record(dimensionKey, labelName);
const note = z.string().max(5000);

/** A rubric reviewer's work in progress: labels chosen so far, the focused dimension, the note. */
export const rubricDraftSchema = z.object({
  labels: labels.default({}),
  focus: z.number().int().min(0).max(1000).optional(),
  note: note.optional(),
});
export type RubricDraft = z.infer<typeof rubricDraftSchema>;

export const submitRubricSchema = z.object({
  assignmentId: z.number().int().positive(),
  requestId,
  activeMs,
  labels,
  note: note.optional(),
});

export const submitRubricAdjudicationSchema = z.object({
  studyId: z.number().int().positive(),
  itemId: z.number().int().positive(),
  requestId,
  labels,
  rationales: z.record(dimensionKey, z.string().max(5000)).default({}),
});
