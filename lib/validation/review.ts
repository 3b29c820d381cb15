import { z } from 'zod';

const requestId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'must be an 8–64 character token' });
const activeMs = z.number().int().min(0).max(7 * 24 * 3600 * 1000);

/** What a reviewer has chosen so far on a flow; saved as they go so a reload returns to the same state. */
export const flowDraftSchema = z.object({
  decision: z.enum(['verify', 'truncate', 'discard']).nullable().optional(),
  afterStep: z.number().int().min(1).nullable().optional(),
  reasons: z.array(z.string().max(40)).max(10).optional(),
  note: z.string().max(5000).optional(),
  focus: z.number().int().min(0).max(100_000).optional(),
});
export type FlowDraft = z.infer<typeof flowDraftSchema>;

export const saveDraftSchema = z.object({
  assignmentId: z.number().int().positive(),
  draft: flowDraftSchema,
  activeMs,
});

export const submitFlowSchema = z.object({
  assignmentId: z.number().int().positive(),
  requestId,
  activeMs,
  decision: z.unknown(),
});

export const undoSchema = z.object({ studyId: z.number().int().positive() });
