import * as z from 'zod';
import { criterionIdSchema, externalId, itemIdSchema, nonEmptyText } from './common';
import { historyTurnSchema, judgeConfidenceSchema, replySchema } from './pairwise';
import { formatIssuePath, issueMessage, type ImportError } from './import-errors';

/*
 * Rubric studies (DESIGN "Rubric item", "Rubric dimensions"): one reply, or a
 * whole dialogue, labelled on each dimension of a catalog, every dimension with
 * its own ordered label set.
 *
 * Label matching. A label in an import line must be one of the dimension's
 * labels exactly, after surrounding whitespace is trimmed; the stored label is
 * the catalog's spelling. Case is NOT folded: "yes" is refused and the message
 * lists the allowed labels. A catalog may legitimately hold labels that differ
 * only in case, and a silent fold would hide a file written against another
 * catalog. Sources with their own spelling (MRBench's field names, judge
 * words) are normalised in their adapter, where the rule can be documented
 * and tested against the real data, never here.
 */

/* ----- dimension catalogs ----- */

/** A label as written in a catalog: non-empty, no surrounding whitespace, no control characters. */
export const rubricLabelSchema = externalId(100);

/**
 * Bounds of a catalog. Labels are stored as their index in the dimension's label set and dimensions as their
 * index in the catalog (db/schema/rubric.ts, `rubric_labels`); these bounds keep both small codes.
 */
export const RUBRIC_MAX_LABELS = 16;
export const RUBRIC_MAX_DIMENSIONS = 64;
/** The most samples of one judge on one item. */
export const RUBRIC_MAX_SAMPLES = 100;

/** Keys JSON can carry but plain objects treat specially; refused so that they are reported, not lost. */
const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'];

function listLabels(labels: readonly string[]): string {
  return labels.join(', ');
}

function quoted(value: string): string {
  return JSON.stringify(value);
}

const lenientSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const key of Object.keys(value)) {
      if (RESERVED_KEYS.includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: `${quoted(key)} is not a label` });
    }
  })
  .pipe(z.record(z.string(), z.string()));

const dimensionShape = z.object({
  id: criterionIdSchema,
  name: nonEmptyText,
  description: nonEmptyText.optional(),
  /** Ordered from worst to best. */
  labels: z.array(rubricLabelSchema).min(2).max(RUBRIC_MAX_LABELS),
  /** The label that counts as success (share of desired labels per tutor). */
  desired: z.string(),
  /** Folds labels into a coarser set for a second, lenient evaluation. */
  lenient: lenientSchema.optional(),
});

export const rubricDimensionSchema = dimensionShape.superRefine((d, ctx) => {
  const seen = new Set<string>();
  d.labels.forEach((label, i) => {
    if (seen.has(label)) ctx.addIssue({ code: 'custom', path: ['labels', i], message: `repeats the label ${quoted(label)}` });
    seen.add(label);
  });
  const allowed = listLabels(d.labels);
  if (!seen.has(d.desired)) {
    ctx.addIssue({ code: 'custom', path: ['desired'], message: `${quoted(d.desired)} is not one of ${allowed}` });
  }
  if (d.lenient === undefined) return;
  for (const [from, to] of Object.entries(d.lenient)) {
    if (!seen.has(from)) {
      ctx.addIssue({ code: 'custom', path: ['lenient', from], message: `folds ${quoted(from)}, which is not one of ${allowed}` });
    }
    if (!seen.has(to)) {
      ctx.addIssue({ code: 'custom', path: ['lenient', from], message: `folds into ${quoted(to)}, which is not one of ${allowed}` });
    } else if (from !== to && Object.prototype.hasOwnProperty.call(d.lenient, to) && d.lenient[to] !== to) {
      ctx.addIssue({
        code: 'custom',
        path: ['lenient', from],
        message: `folds into ${quoted(to)}, which is itself folded into ${quoted(d.lenient[to])}: fold into the final label directly`,
      });
    }
    if (from === d.desired && to !== from) {
      ctx.addIssue({
        code: 'custom',
        path: ['lenient', from],
        message: `folds the desired label ${quoted(from)} away; a lenient evaluation must keep the desired label`,
      });
    }
  }
});
export type RubricDimension = z.infer<typeof rubricDimensionSchema>;

export const rubricCatalogSchema = z
  .array(rubricDimensionSchema)
  .min(1)
  .max(RUBRIC_MAX_DIMENSIONS)
  .superRefine(
    (catalog, ctx) => {
      const seen = new Set<string>();
      catalog.forEach((d: { id?: unknown } | undefined, i) => {
        if (typeof d?.id !== 'string') return;
        if (seen.has(d.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicates dimension id ${quoted(d.id)}` });
        seen.add(d.id);
      });
    },
    // Also when other dimensions are invalid, so that one report lists every problem.
    { when: (payload) => Array.isArray(payload.value) },
  );
export type RubricCatalog = z.infer<typeof rubricCatalogSchema>;

/**
 * A problem in a dimensions catalog: `line` is the dimension's 1-based position
 * in the array (0 for the catalog as a whole), `dimension` its id when it has a
 * readable one, `path` the field inside that dimension (`desired`,
 * `lenient["Maybe"]`, `labels[2]`).
 */
export type CatalogError = ImportError & { dimension: string | null };

export type CatalogResult = { ok: true; catalog: RubricCatalog } | { ok: false; errors: CatalogError[] };

function dimensionIdAt(value: unknown, index: number): string | null {
  if (!Array.isArray(value)) return null;
  const d: unknown = value[index];
  if (d === null || typeof d !== 'object') return null;
  const id = (d as { id?: unknown }).id;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

/** Validates a parsed catalog (an array of dimensions), naming the dimension and field of every problem. */
export function validateRubricCatalog(value: unknown): CatalogResult {
  const parsed = rubricCatalogSchema.safeParse(value, { reportInput: true });
  if (parsed.success) return { ok: true, catalog: parsed.data };
  const errors = parsed.error.issues.map((issue): CatalogError => {
    const [head, ...rest] = issue.path;
    if (typeof head !== 'number') {
      return { line: 0, dimension: null, path: formatIssuePath(issue.path), message: issueMessage(issue) };
    }
    return { line: head + 1, dimension: dimensionIdAt(value, head), path: formatIssuePath(rest), message: issueMessage(issue) };
  });
  return { ok: false, errors };
}

/** One line of plain English per catalog problem: `dimension 2 (mistake_location), desired: "Maybe" is not one of …`. */
export function formatCatalogError(e: CatalogError): string {
  if (e.line === 0) return `catalog${e.path ? `, ${e.path}` : ''}: ${e.message}`;
  const who = `dimension ${e.line}${e.dimension ? ` (${e.dimension})` : ''}`;
  return `${who}${e.path ? `, ${e.path}` : ''}: ${e.message}`;
}

/** Parses a catalog file's text (a JSON array of dimensions). A leading BOM is ignored. */
export function parseRubricCatalog(text: string): CatalogResult {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return { ok: false, errors: [{ line: 0, dimension: null, path: '', message: `is not valid JSON (${(e as Error).message})` }] };
  }
  return validateRubricCatalog(data);
}

/* ----- rubric items ----- */

export const rubricItemSchema = z
  .object({
    id: itemIdSchema,
    /** Ties the replies of several tutors to the same dialogue. */
    group: itemIdSchema.optional(),
    problem: nonEmptyText.optional(),
    history: z.array(historyTurnSchema).default([]),
    /** The reply being judged; without it the whole history is judged. */
    reply: replySchema.optional(),
  })
  .superRefine((item, ctx) => {
    if (item.reply === undefined && item.history.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['history'],
        message: 'must have at least one turn when there is no reply: without a reply the dialogue itself is what is judged',
      });
    }
  });
export type RubricItem = z.infer<typeof rubricItemSchema>;

/* ----- labels checked against a catalog ----- */

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * `{dimensionId: label}` with at least one entry, every key a dimension of
 * `catalog` and every value one of that dimension's labels (after trimming).
 * The output holds the catalog's spelling of each label.
 */
export function rubricLabelsSchema(catalog: readonly Pick<RubricDimension, 'id' | 'labels'>[]) {
  const byId = new Map(catalog.map((d) => [d.id, d] as const));
  const ids = catalog.map((d) => d.id).join(', ');
  return z
    .unknown()
    .superRefine((value, ctx) => {
      if (value === undefined) {
        ctx.addIssue({ code: 'custom', message: 'is required' });
        return;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        ctx.addIssue({ code: 'custom', message: `must be an object mapping dimension ids to labels (got ${describeValue(value)})` });
        return;
      }
      const entries = Object.entries(value);
      if (entries.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'must contain at least one label' });
        return;
      }
      for (const [key, label] of entries) {
        const dimension = byId.get(key);
        if (dimension === undefined) {
          ctx.addIssue({ code: 'custom', path: [key], message: `is not a dimension of this study (${ids})` });
        } else if (typeof label !== 'string') {
          ctx.addIssue({ code: 'custom', path: [key], message: `must be a string (got ${describeValue(label)})` });
        } else if (!dimension.labels.includes(label.trim())) {
          ctx.addIssue({ code: 'custom', path: [key], message: `${quoted(label)} is not one of ${listLabels(dimension.labels)}` });
        }
      }
    })
    .transform((value) => {
      const out: Record<string, string> = {};
      for (const [key, label] of Object.entries(value as Record<string, string>)) out[key] = label.trim();
      return out;
    });
}
export type RubricLabels = Record<string, string>;

const personOrJudgeName = externalId(200);

/** A prior human annotation of a rubric item (DESIGN "Prior human annotations"). */
export function rubricAnnotationLineSchema(catalog: readonly Pick<RubricDimension, 'id' | 'labels'>[]) {
  return z.object({
    item: itemIdSchema,
    annotator: personOrJudgeName,
    labels: rubricLabelsSchema(catalog),
  });
}
export type RubricAnnotationLine = { item: string; annotator: string; labels: RubricLabels };

/**
 * A judge's verdict on a rubric item. `sample` numbers repeated samplings of
 * the same judge (default 1); each sample is a verdict set of its own.
 */
export function rubricJudgeLineSchema(catalog: readonly Pick<RubricDimension, 'id' | 'labels'>[]) {
  return z.object({
    item: itemIdSchema,
    judge: personOrJudgeName,
    labels: rubricLabelsSchema(catalog),
    sample: z.int().min(1).max(RUBRIC_MAX_SAMPLES).default(1),
    rationale: z.string().optional(),
    confidence: judgeConfidenceSchema,
  });
}
export type RubricJudgeLine = {
  item: string;
  judge: string;
  labels: RubricLabels;
  sample: number;
  rationale?: string;
  /** 0–1, for every label of the line. */
  confidence?: number;
};
