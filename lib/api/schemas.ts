/**
 * What the HTTP API sends back, as zod schemas. They are the documentation (the OpenAPI document is generated from
 * them) and the check: the API's tests validate every answer against the document. Request bodies and query
 * parameters are the same schemas the screens and the CLI use (`lib/validation`), so there is one rule per field.
 */
import { z } from 'zod';
import { ACCOUNT_ROLES } from '@/lib/validation/accounts';
import { STUDY_KINDS } from '@/lib/validation/labels';
import { criterionSchema } from '@/lib/validation/pairwise';
import { rubricDimensionSchema } from '@/lib/validation/rubric';

const STATUSES = ['draft', 'open', 'closed'] as const;
const isoTime = z.iso.datetime().describe('An instant in ISO 8601, UTC.');
const id = z.number().int().positive();

export const tokenRefSchema = z.object({ id, name: z.string() }).describe('The token the request came with.');

export const myStudySchema = z.object({
  id,
  kind: z.enum(STUDY_KINDS),
  name: z.string(),
  status: z.enum(STATUSES),
  assigned: z.number().int().min(0),
  submitted: z.number().int().min(0),
  isAdjudicator: z.boolean(),
  disagreementsWaiting: z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe("For the study's adjudicator: items with disagreements not all settled."),
  deadline: isoTime.nullable(),
  guidelinesVersion: z.number().int().positive(),
});

export const meSchema = z.object({
  id,
  username: z.string(),
  displayName: z.string(),
  role: z.enum(ACCOUNT_ROLES),
  token: tokenRefSchema,
  studies: z.array(myStudySchema).describe('The studies this person reviews or adjudicates in, with their own progress.'),
});

export const progressSchema = z.object({
  items: z.number().int().min(0),
  assigned: z.number().int().min(0).describe('Reviews planned: items × reviewers per item, once the study is open.'),
  submitted: z.number().int().min(0),
});

export const studySummarySchema = z.object({
  id,
  kind: z.enum(STUDY_KINDS),
  name: z.string(),
  status: z.enum(STATUSES),
  archived: z.boolean(),
  items: z.number().int().min(0),
  assigned: z.number().int().min(0),
  submitted: z.number().int().min(0),
  reviewers: z.array(z.string()).describe('Usernames of the reviewers.'),
  deadline: isoTime.nullable(),
  createdAt: isoTime,
});

/** A page of a list, oldest first; pass `nextCursor` as `cursor` for the next page (null on the last). */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({
    data: z.array(row),
    nextCursor: z.string().nullable().describe('Give as `cursor` to read the next page; null on the last page.'),
  });

const person = z.object({ username: z.string(), displayName: z.string() });

export const studySchema = z.object({
  id,
  kind: z.enum(STUDY_KINDS),
  name: z.string(),
  status: z.enum(STATUSES),
  archived: z.boolean(),
  guidelines: z.string().describe('Markdown shown to reviewers.'),
  guidelinesVersion: z.number().int().positive(),
  payRate: z.number().min(0).describe('Pay per submitted review, in currency units.'),
  reviewersPerItem: z.number().int().positive(),
  assignmentMode: z.enum(['balanced', 'fixed_sets']),
  groundTruthRule: z.enum(['adjudicated', 'majority']),
  seed: z.number().int(),
  criteria: z.array(criterionSchema).describe('Pairwise: the criteria judged besides the overall verdict; empty for other kinds.'),
  dimensions: z
    .array(rubricDimensionSchema)
    .nullable()
    .describe("Rubric: the study's dimensions with their labels, worst first; null for other kinds."),
  members: z.array(person.extend({ setIndex: z.number().int().min(0).nullable() })),
  adjudicator: person.nullable(),
  createdAt: isoTime,
  openedAt: isoTime.nullable(),
  deadline: isoTime.nullable(),
  progress: progressSchema,
});

export const createdSchema = z.object({ id }).describe('The id of what was made.');
