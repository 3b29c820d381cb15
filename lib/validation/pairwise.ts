import * as z from 'zod';
import { LABELS, SPEAKERS } from './labels';
import { CRITERION_ID_PATTERN, OVERALL, criterionIdSchema, externalId, itemIdSchema, nonEmptyText } from './common';

/*
 * Pairwise items, criteria catalogs, prior annotations and judge outputs
 * (DESIGN "Pairwise item", "Criteria catalog", "Prior human annotations",
 * "Judge output"). Unknown keys are stripped, as for flows.
 */

export const labelSchema = z.enum(LABELS);

export const replySchema = z.object({
  /** Who wrote the reply. Never shown to annotators or adjudicators. */
  source: nonEmptyText,
  // May be empty: a model that returned nothing is a real outcome that people
  // judge (PandaLM's human-labelled test set has such replies).
  text: z.string(),
});

export const historyTurnSchema = z.object({
  role: z.enum(SPEAKERS),
  text: nonEmptyText,
});

function uniqueStrings<T extends z.ZodType<string>>(element: T, what: string) {
  return z.array(element).superRefine((values, ctx) => {
    const seen = new Set<string>();
    values.forEach((v, i) => {
      if (seen.has(v)) ctx.addIssue({ code: 'custom', path: [i], message: `repeats the ${what} '${v}'` });
      seen.add(v);
    });
  });
}

export const pairwiseItemSchema = z.object({
  id: itemIdSchema,
  problem: nonEmptyText,
  instructions: z.string().optional(),
  /** Target principles; when absent every criterion of the catalog applies. */
  principles: uniqueStrings(nonEmptyText, 'principle').optional(),
  history: z.array(historyTurnSchema).default([]),
  a: replySchema,
  b: replySchema,
});
export type PairwiseItem = z.infer<typeof pairwiseItemSchema>;

/* ----- criteria catalog ----- */

export const CRITERION_LEVELS = ['general', 'principle'] as const;

export const criterionSchema = z
  .object({
    id: criterionIdSchema,
    name: nonEmptyText,
    level: z.enum(CRITERION_LEVELS),
    principle: nonEmptyText.optional(),
    description: nonEmptyText,
    aspects: z.array(nonEmptyText).default([]),
  })
  .superRefine((c, ctx) => {
    if (c.level === 'principle' && c.principle === undefined) {
      ctx.addIssue({ code: 'custom', path: ['principle'], message: "is required when level is 'principle'" });
    }
    if (c.level === 'general' && c.principle !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['principle'], message: "must be omitted when level is 'general'" });
    }
  });
export type Criterion = z.infer<typeof criterionSchema>;

export const criteriaCatalogSchema = z.array(criterionSchema).superRefine((catalog, ctx) => {
  const seen = new Set<string>();
  catalog.forEach((c, i) => {
    if (c.id === OVERALL) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'id'],
        message: "'overall' is reserved: every item always has an overall verdict, so a catalog must not define it",
      });
    } else if (seen.has(c.id)) {
      ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicates criterion id '${c.id}'` });
    }
    seen.add(c.id);
  });
});
export type CriteriaCatalog = z.infer<typeof criteriaCatalogSchema>;

/**
 * The criterion ids an item is judged on: the catalog's general criteria, then
 * the principle criteria of the item's principles (every principle criterion
 * when `principles` is absent), each group in catalog order, then 'overall'.
 */
export function applicableCriteria(
  catalog: readonly Pick<Criterion, 'id' | 'level' | 'principle'>[],
  principles?: readonly string[],
): string[] {
  const wanted = principles === undefined ? null : new Set(principles);
  const general = catalog.filter((c) => c.level === 'general').map((c) => c.id);
  const specific = catalog
    .filter((c) => c.level === 'principle' && (wanted === null || (c.principle !== undefined && wanted.has(c.principle))))
    .map((c) => c.id);
  return [...general, ...specific, OVERALL];
}

/* ----- labels brought in from elsewhere ----- */

const labelKeySchema = z.string().refine((key) => CRITERION_ID_PATTERN.test(key), {
  error: 'is not a valid criterion id (lowercase letters, digits and _, starting with a letter)',
});

/** `{criterionId: label}` with at least one entry; keys are criterion ids or 'overall'. */
/** A key JSON can carry but a record drops silently; refused so that it is reported, not lost. */
const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'];

export const labelsSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const key of Object.keys(value)) {
      if (RESERVED_KEYS.includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" is not a criterion id` });
    }
  })
  .pipe(
    z.record(labelKeySchema, labelSchema).refine((labels) => Object.keys(labels).length > 0, {
      error: 'must contain at least one label',
    }),
  );
export type Labels = z.infer<typeof labelsSchema>;

const personOrJudgeName = externalId(200);

export const annotationLineSchema = z.object({
  item: itemIdSchema,
  annotator: personOrJudgeName,
  labels: labelsSchema,
});
export type AnnotationLine = z.infer<typeof annotationLineSchema>;

/**
 * The judge's own confidence in the verdicts of a line, from 0 to 1 (a verbalised confidence or a probability); it
 * applies to every label of the line, so verdicts with different confidences go on lines of their own.
 */
export const judgeConfidenceSchema = z
  .number({ error: 'confidence must be a number from 0 to 1.' })
  .min(0, { error: 'confidence must be from 0 to 1.' })
  .max(1, { error: 'confidence must be from 0 to 1.' })
  .optional();

export const judgeLineSchema = z.object({
  item: itemIdSchema,
  judge: personOrJudgeName,
  labels: labelsSchema,
  /** True when the judge saw the replies in the order b, a; labels are still from a's side. */
  swapped: z.boolean().default(false),
  rationale: z.string().optional(),
  confidence: judgeConfidenceSchema,
});
export type JudgeLine = z.infer<typeof judgeLineSchema>;
