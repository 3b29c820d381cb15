import { z } from 'zod';
// Before any schema is built: in the browser, zod must not try `new Function` (see common.ts).
import './common';

export const STUDY_KIND_CHOICES = ['flow_review', 'pairwise', 'rubric'] as const;

/** The most reviewers per item the app assigns (the study's plan; a CHECK in `studies` holds it too). */
export const MAX_PLANNED_REVIEWERS = 10;

/**
 * The most raters one item may have from imported prior annotations (crowd datasets bring hundreds). It exists
 * only to bound memory: the readers hold one byte per item, unit and slot up to the study's highest slot.
 */
export const MAX_RATERS_PER_ITEM = 1000;

/** How a study settles each item's label: per item (adjudicated, majority) or by a whole-study label model. */
export const GROUND_TRUTH_RULE_CHOICES = ['adjudicated', 'majority', 'dawid_skene', 'mace'] as const;
const ruleError = 'Choose adjudicated, majority, dawid_skene or mace.';
export const groundTruthRuleSchema = z.enum(GROUND_TRUTH_RULE_CHOICES, { error: ruleError });
export type GroundTruthRuleChoice = (typeof GROUND_TRUTH_RULE_CHOICES)[number];

/** How each rule is named to a lead (the rule chooser, the dashboards' headers, an item's page). */
export const GROUND_TRUTH_RULE_NAMES: Record<GroundTruthRuleChoice, string> = {
  adjudicated: 'agreed, else adjudicated',
  majority: 'majority of the reviewers, else adjudicated',
  dawid_skene: 'Dawid–Skene model over the whole study (a ruling overrides)',
  mace: 'MACE model over the whole study (a ruling overrides)',
};

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
  // The in-app assignment plan. Imported prior annotations are not bounded by it (MAX_RATERS_PER_ITEM, decision 0028).
  reviewersPerItem: intFromForm(1, MAX_PLANNED_REVIEWERS, 'Reviewers per item').optional(),
  // Fixes the assignment draw so a study can be reproduced; drawn at random when absent.
  seed: intFromForm(1, 2 ** 31 - 2, 'Seed').optional(),
  /** How ground truth is formed where reviewers disagree (every kind with labels). */
  groundTruthRule: groundTruthRuleSchema.optional(),
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
