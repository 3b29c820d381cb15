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
import { GROUND_TRUTH_RULE_CHOICES } from '@/lib/validation/studies';

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
  guidelinesUpdated: z
    .boolean()
    .describe('The guidelines changed after this person first worked on an item of the study (saved or submitted).'),
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
  groundTruthRule: z.enum(GROUND_TRUTH_RULE_CHOICES),
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

const count = z.number().int().min(0);
const records = z.object({
  records: count.describe('Records in the file.'),
  inserted: count.describe('Records written.'),
  unchanged: count.describe('Records already there, identical, so left as they were (re-sending a file is harmless).'),
});

export const itemsImportSchema = records
  .extend({
    annotations: records.optional().describe("Prior annotations that came with the items (PandaLM's annotators, MRBench's gold labels)."),
  })
  .describe('What the import wrote; a refused file writes nothing.');

export const annotationsImportSchema = records.describe('What the import wrote; a refused file writes nothing.');

export const judgeImportSchema = z
  .object({
    run: z.string().describe("The judge run's name."),
    records: count,
    labels: count.describe('Labels written (one per criterion judged).'),
    unparsed: z
      .array(z.object({ item: z.string(), line: z.number().int().positive(), message: z.string() }))
      .describe('Records whose verdict could not be read: left out, never guessed.'),
  })
  .describe('The judge run as imported.');

export const reportSchema = z
  .record(z.string(), z.unknown())
  .describe('The report, exactly the JSON `concord report … --json` prints; its fields are those of the report named.');

const queueSchema = z.object({
  studyId: id,
  studyName: z.string(),
  kind: z.enum(STUDY_KINDS),
  guidelines: z.string().describe('Markdown shown to reviewers.'),
  status: z.enum(STATUSES),
  total: count.describe('Assignments of this reviewer in the study.'),
  submitted: count,
  currentId: id.nullable().describe('The assignment to do now; null when there is none.'),
  nextId: id.nullable(),
  upcomingIds: z.array(id).describe('The pending assignments after the current one, in queue order (a few).'),
  undoableId: id.nullable().describe('The most recent submission, which can still be taken back while the study is open.'),
  revising: z
    .array(z.object({ assignmentId: id, submittedAt: isoTime, revision: count }))
    .describe('Submissions being revised; they come first in the queue.'),
});

export const assignmentSchema = z
  .looseObject({
    kind: z.enum(STUDY_KINDS),
    assignmentId: id,
    studyId: id,
    queuePosition: z.number().int(),
    state: z.enum(['pending', 'submitted']),
  })
  .describe(
    "The item as the review screen receives it, blind: a flow's steps, or a pair's responses as Response A and B in this reviewer's order, or a rubric item; no model names, other reviewers or judge verdicts.",
  );

export const nextSchema = z.object({
  queue: queueSchema,
  assignment: assignmentSchema.nullable().describe("The current assignment's item; null when nothing is left to do."),
});

export const submissionBodySchema = z
  .looseObject({
    requestId: z
      .string()
      .describe('8–64 characters of [A-Za-z0-9_-], new for each submission: a retry with the same id is answered with the first result.'),
    activeMs: z.number().int().min(0).describe('Time spent on the item, in milliseconds.'),
    decision: z
      .unknown()
      .optional()
      .describe(
        'Flow review: `{"decision": "verify"}`, `{"decision": "truncate", "afterStep": n}` or `{"decision": "discard", "reasons": [...]}`, each with an optional `note`.',
      ),
    choices: z
      .unknown()
      .optional()
      .describe(
        'Pairwise: `{"<criterion id>": "r1" | "tie" | "r2"}` for each criterion, r1 and r2 being the responses in the order served.',
      ),
    labels: z.unknown().optional().describe('Rubric: `{"<dimension id>": "<label>"}` for each of the study\'s dimensions.'),
  })
  .describe('The same body as the review screen sends; the study kind decides which of decision, choices or labels is read.');

export const submissionSchema = z.object({
  assignmentId: id,
  revision: count,
  duplicate: z.boolean().describe('True when this requestId was already submitted: nothing new was written.'),
  queue: queueSchema.describe("This reviewer's queue of the study as it now stands."),
});

/** A downloaded or uploaded file, described as a string of its media type. */
export const fileSchema = z.string();
