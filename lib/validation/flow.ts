import * as z from 'zod';
import { DISCARD_REASONS, SPEAKERS } from './labels';
import { externalId, itemIdSchema, nonEmptyText } from './common';

/*
 * Flow items (DESIGN "Flow item"). Only `id`, `problem.text` and `steps` are
 * required; optional fields are typed when present.
 *
 * Unknown keys are STRIPPED, not preserved and not rejected: drafting pipelines
 * add their own bookkeeping fields (scores, model names, timestamps) that the
 * review does not use, rejecting them would make every such file unimportable,
 * and dropping them keeps the stored item — and so its content hash — limited
 * to what Concord shows and exports.
 *
 * `null` is not accepted for an optional field: omit the field instead.
 */

/** A number in the source (e.g. `"answer": 32`) is kept as its decimal text. */
const scalarText = z.union([z.string(), z.number()]).transform((v) => String(v));

export const flowProblemSchema = z.object({
  text: nonEmptyText,
  solution: z.string().optional(),
  answer: scalarText.optional(),
  grade: scalarText.optional(),
  domain: z.string().optional(),
  standards: z.array(z.string()).optional(),
});

const materialId = externalId(100);

export const followUpMaterialSchema = z.object({
  id: materialId,
  kind: z.literal('follow_up'),
  text: nonEmptyText,
  solution: z.string().optional(),
});

export const errorAnalysisMaterialSchema = z.object({
  id: materialId,
  kind: z.literal('error_analysis'),
  student_solution: nonEmptyText,
  first_error_step: z.int().min(1).optional(),
  feedback: z.string().optional(),
});

export const similarProblemMaterialSchema = z.object({
  id: materialId,
  kind: z.literal('similar_problem'),
  difficulty: z.string().optional(),
  text: nonEmptyText,
  solution: z.string().optional(),
});

export const dialogueTurnSchema = z.object({
  role: z.enum(SPEAKERS),
  text: nonEmptyText,
});

export const clarificationMaterialSchema = z.object({
  id: materialId,
  kind: z.literal('clarification'),
  turns: z.array(dialogueTurnSchema).min(1),
});

export const materialSchema = z.discriminatedUnion('kind', [
  followUpMaterialSchema,
  errorAnalysisMaterialSchema,
  similarProblemMaterialSchema,
  clarificationMaterialSchema,
]);
export type Material = z.infer<typeof materialSchema>;

export const flowStepSchema = z.object({
  speaker: z.enum(SPEAKERS),
  text: nonEmptyText,
  principles: z.array(nonEmptyText).optional(),
  // Names that the flow does not provide are accepted on purpose: they are the
  // hallucinations a reviewer has to catch, and flowWarnings() points them out.
  materials: z.array(nonEmptyText).optional(),
});
export type FlowStep = z.infer<typeof flowStepSchema>;

export const flowItemSchema = z
  .object({
    id: itemIdSchema,
    problem: flowProblemSchema,
    materials: z.array(materialSchema).optional(),
    tutor_persona: z.string().optional(),
    student_profile: z.string().optional(),
    learning_objectives: z.array(z.string()).optional(),
    steps: z.array(flowStepSchema).min(1),
  })
  .superRefine((flow, ctx) => {
    // Two materials with one name would make every reference to it ambiguous.
    const seen = new Set<string>();
    flow.materials?.forEach((m, i) => {
      if (seen.has(m.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['materials', i, 'id'],
          message: `duplicates material id '${m.id}'`,
        });
      }
      seen.add(m.id);
    });
  });
export type FlowItem = z.infer<typeof flowItemSchema>;

/* ----- review decisions ----- */

export const NOTE_MAX = 5000;
const noteSchema = z.string().trim().max(NOTE_MAX);

const verifyDecisionSchema = z.object({
  decision: z.literal('verify'),
  note: noteSchema.optional(),
});

const truncateDecisionSchema = z.object({
  decision: z.literal('truncate'),
  /** The flow keeps steps 1..afterStep. */
  afterStep: z.int().min(1),
  note: noteSchema.optional(),
});

const discardDecisionSchema = z
  .object({
    decision: z.literal('discard'),
    reasons: z.array(z.enum(DISCARD_REASONS)).min(1),
    note: noteSchema.optional(),
  })
  .superRefine((d, ctx) => {
    const seen = new Set<string>();
    d.reasons.forEach((r, i) => {
      if (seen.has(r)) {
        ctx.addIssue({ code: 'custom', path: ['reasons', i], message: `repeats the reason '${r}'` });
      }
      seen.add(r);
    });
    if (d.reasons.includes('other') && !d.note) {
      ctx.addIssue({
        code: 'custom',
        path: ['note'],
        message: "is required when 'other' is among the reasons",
      });
    }
  });

/**
 * A review decision without knowledge of the flow. Use flowDecisionFor() where
 * the flow's step count is known, which is wherever a decision is saved.
 */
export const flowDecisionSchema = z.discriminatedUnion('decision', [verifyDecisionSchema, truncateDecisionSchema, discardDecisionSchema]);
export type FlowDecision = z.infer<typeof flowDecisionSchema>;

/** The decision schema for a flow with `stepCount` steps: truncation must keep 1..stepCount-1 steps. */
export function flowDecisionFor(stepCount: number) {
  return flowDecisionSchema.superRefine((d, ctx) => {
    if (d.decision !== 'truncate' || d.afterStep < stepCount) return;
    ctx.addIssue({
      code: 'custom',
      path: ['afterStep'],
      message:
        stepCount < 2
          ? `cannot truncate a flow with ${stepCount} step${stepCount === 1 ? '' : 's'}`
          : `must be less than the number of steps (${stepCount}); truncating after the last step keeps the whole flow`,
    });
  });
}
