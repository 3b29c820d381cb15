import { z } from 'zod';
import { formatIdsOf } from '@/lib/kinds/import-formats';
import { FLOW_IMPORT_FORMATS } from '@/lib/kinds/flow/import-formats';
import { PAIRWISE_IMPORT_FORMATS } from '@/lib/kinds/pairwise/import-formats';
import { RUBRIC_IMPORT_FORMATS } from '@/lib/kinds/rubric/import-formats';

export const STUDY_KIND_CHOICES = ['flow_review', 'pairwise', 'rubric'] as const;

const intFromForm = (min: number, max: number, what: string) =>
  z.coerce
    .number({ error: `${what} must be a number.` })
    .int({ error: `${what} must be a whole number.` })
    .min(min, { error: `${what} must be at least ${min}.` })
    .max(max, { error: `${what} must be at most ${max}.` });

export const createStudySchema = z.object({
  kind: z.enum(STUDY_KIND_CHOICES, { error: 'Choose flow_review, pairwise or rubric.' }),
  name: z.string().trim().min(1, { error: 'Enter a name.' }).max(200, { error: 'Use at most 200 characters.' }),
  guidelines: z.string().max(100_000, { error: 'Guidelines are limited to 100,000 characters.' }).default(''),
  // Entered in currency units per item (e.g. 0.35), kept in cents.
  payRate: z.coerce
    .number({ error: 'Pay rate must be a number.' })
    .min(0, { error: 'Pay rate cannot be negative.' })
    .max(10_000, { error: 'Pay rate is limited to 10,000 per item.' })
    .default(0),
  reviewersPerItem: intFromForm(1, 10, 'Reviewers per item').optional(),
  // Fixes the assignment draw so a study can be reproduced; drawn at random when absent.
  seed: intFromForm(1, 2 ** 31 - 2, 'Seed').optional(),
  /** Pairwise: how ground truth is formed where reviewers disagree. */
  groundTruthRule: z.enum(['adjudicated', 'majority'], { error: 'Choose adjudicated or majority.' }).optional(),
  /**
   * Rubric: the dimensions catalog, as a shipped catalog's name (`mrbench-v3`, …), the text of a catalog file, or
   * the parsed array. Checked by the use-case against `rubricCatalogSchema`, which names each dimension's problems.
   */
  dimensions: z.unknown().optional(),
});
export type CreateStudyInput = z.input<typeof createStudySchema>;

export const studyMembersSchema = z.object({
  usernames: z.array(z.string().trim().toLowerCase().min(1)).max(500),
  /** fixed_sets: the reviewers, in order, form groups of reviewers-per-item; each group judges one set of items. */
  mode: z.enum(['balanced', 'fixed_sets']).default('balanced'),
  adjudicator: z.string().trim().toLowerCase().min(1).nullable().optional(),
});

/*
 * The import formats per study kind, derived from each kind's one list (`lib/kinds/<kind>/import-formats.ts`, read
 * through `lib/kinds/import-formats.ts`); kept under these names for the pages that offer them.
 */
const ids = <L extends readonly { id: string }[]>(list: L) => list.map((f) => f.id) as L[number]['id'][];

export const IMPORT_FORMATS = {
  flow_review: ids(FLOW_IMPORT_FORMATS.items),
  pairwise: ids(PAIRWISE_IMPORT_FORMATS.items),
  rubric: ids(RUBRIC_IMPORT_FORMATS.items),
} as const;

/** The item formats a file uploaded through the web may have, per study kind (not those read from a dataset's directory). */
export const UPLOAD_FORMATS = {
  flow_review: formatIdsOf('flow_review', 'items', { upload: true }),
  pairwise: formatIdsOf('pairwise', 'items', { upload: true }),
  rubric: formatIdsOf('rubric', 'items', { upload: true }),
} as const satisfies Record<keyof typeof IMPORT_FORMATS, readonly string[]>;

/** Prior annotation formats per study kind (`mrbench`: the published gold labels, by the account `mrbench-gold`). */
export const ANNOTATION_FORMATS = {
  pairwise: ids(PAIRWISE_IMPORT_FORMATS.annotations),
  rubric: ids(RUBRIC_IMPORT_FORMATS.annotations),
} as const;

/** Judge-run formats per study kind. */
export const JUDGE_IMPORT_FORMATS = {
  pairwise: ids(PAIRWISE_IMPORT_FORMATS.judge),
  rubric: ids(RUBRIC_IMPORT_FORMATS.judge),
} as const;

/** Editing an open (or draft) study: either field may be left out; what is given replaces the current value. */
export const editStudySchema = z
  .object({
    name: createStudySchema.shape.name.optional(),
    guidelines: z.string().max(100_000, { error: 'Guidelines are limited to 100,000 characters.' }).optional(),
  })
  .refine((v) => v.name !== undefined || v.guidelines !== undefined, { error: 'Give a new name or new guidelines.' });

/** A deadline as a calendar day (YYYY-MM-DD, the end of that day in UTC) or a full ISO date-time. */
export const deadlineSchema = z.object({
  deadline: z
    .string()
    .trim()
    .min(1, { error: 'Enter a deadline.' })
    .transform((v, ctx) => {
      const day = /^\d{4}-\d{2}-\d{2}$/.test(v);
      const t = Date.parse(day ? `${v}T23:59:59.999Z` : v);
      if (Number.isNaN(t) || (day && new Date(t).toISOString().slice(0, 10) !== v)) {
        ctx.addIssue({ code: 'custom', message: `"${v}" is not a date (use YYYY-MM-DD).` });
        return z.NEVER;
      }
      return new Date(t);
    }),
});

export const replaceReviewerSchema = z.object({
  from: z.string().trim().toLowerCase().min(1, { error: 'Choose the reviewer who left.' }),
  to: z.string().trim().toLowerCase().min(1, { error: 'Choose who takes over.' }),
});

export const addReviewerSchema = z.object({
  username: z.string().trim().toLowerCase().min(1, { error: 'Choose an account.' }),
});

export const STUDY_SORTS = ['newest', 'oldest', 'name', 'progress', 'status'] as const;

/** The studies list's search, filters and order, as read from the page's query string. */
export const studyListSchema = z.object({
  q: z.string().trim().max(200).default(''),
  kind: z.enum(['flow_review', 'pairwise', 'rubric']).optional().catch(undefined),
  status: z.enum(['draft', 'open', 'closed', 'archived']).optional().catch(undefined),
  sort: z.enum(STUDY_SORTS).default('newest').catch('newest'),
});
