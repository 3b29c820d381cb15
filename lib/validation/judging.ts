import { z } from 'zod';
// Before any schema is built: in the browser, zod must not try `new Function` (see common.ts).
import './common';

export const SCREEN_CHOICES = ['r1', 'tie', 'r2'] as const;
const criterionKey = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/)
  .max(64);
const requestId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'must be an 8–64 character token' });
const activeMs = z
  .number()
  .int()
  .min(0)
  .max(7 * 24 * 3600 * 1000);
const choices = z.record(criterionKey, z.enum(SCREEN_CHOICES));

export const judgmentDraftSchema = z.object({ choices: choices.default({}), focus: z.number().int().min(0).max(1000).optional() });
export type JudgmentDraft = z.infer<typeof judgmentDraftSchema>;

export const submitJudgmentSchema = z.object({ assignmentId: z.number().int().positive(), requestId, activeMs, choices });

export const submitAdjudicationSchema = z.object({
  studyId: z.number().int().positive(),
  itemId: z.number().int().positive(),
  requestId,
  choices,
  rationales: z.record(criterionKey, z.string().max(5000)).default({}),
});
