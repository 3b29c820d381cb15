import { z } from 'zod';
import { pageNumberSchema } from './common';
import { COMMENT_MAX, FLAG_REASON_MAX } from './limits';

/** A submission's request id: the token a retry repeats (every kind's submission and ruling carries one). */
export const requestId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'must be an 8–64 character token' });
/** The time a reviewer was active on an item, as the screen measured it (at most a week). */
export const activeMs = z
  .number()
  .int()
  .min(0)
  .max(7 * 24 * 3600 * 1000);

/** What a reviewer has chosen so far on a flow; saved as they go so a reload returns to the same state. */
export const flowDraftSchema = z.object({
  decision: z.enum(['verify', 'truncate', 'discard']).nullable().optional(),
  afterStep: z.number().int().min(1).nullable().optional(),
  reasons: z.array(z.string().max(40)).max(10).optional(),
  note: z.string().max(5000).optional(),
  focus: z.number().int().min(0).max(100_000).optional(),
});
export type FlowDraft = z.infer<typeof flowDraftSchema>;

/** A draft save of any kind: the draft itself is parsed with the assignment's kind's schema (`draftSchema`). */
export const saveDraftSchema = z.object({
  assignmentId: z.number().int().positive(),
  draft: z.unknown(),
  activeMs,
});

export const submitFlowSchema = z.object({
  assignmentId: z.number().int().positive(),
  requestId,
  activeMs,
  decision: z.unknown(),
});

export const undoSchema = z.object({ studyId: z.number().int().positive() });

/**
 * Puts a pending item at the end of the reviewer's queue. `queuePosition` is where the screen saw it: a retry or a
 * second press finds it moved already and changes nothing.
 */
export const skipSchema = z.object({
  assignmentId: z.number().int().positive(),
  queuePosition: z.number().int(),
  activeMs,
});

export { COMMENT_MAX, FLAG_REASON_MAX };

/** Flags an item for the study's leads with a reason, or clears the flag (`reason: null`). */
export const flagSchema = z.object({
  assignmentId: z.number().int().positive(),
  reason: z
    .string()
    .trim()
    .min(1, { error: 'say why the item is flagged' })
    .max(FLAG_REASON_MAX, { error: `at most ${FLAG_REASON_MAX} characters` })
    .nullable(),
});

/** The reviewer's free comment on an item; an empty one removes it. */
export const commentSchema = z.object({
  assignmentId: z.number().int().positive(),
  comment: z
    .string()
    .trim()
    .max(COMMENT_MAX, { error: `at most ${COMMENT_MAX} characters` }),
});

/** The reviewer's submissions in a study, newest first; `search` matches the item number or the problem's text. */
export const historySchema = z.object({
  studyId: z.number().int().positive(),
  search: z.string().trim().max(200, { error: 'at most 200 characters' }).optional(),
  limit: z.number().int().min(1).max(200).optional(),
  offset: z.number().int().min(0).optional(),
  /** The page as its URL gives it (pages of `limit`); wins over `offset`. */
  page: pageNumberSchema,
});

/** Opens one of the reviewer's submitted items again to revise it. */
export const reopenSchema = z.object({ assignmentId: z.number().int().positive() });
