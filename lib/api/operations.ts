/**
 * Every operation of the HTTP API (v1): its method and path, who may call it, its parameters, body and answer as zod
 * schemas. The route handlers under `app/api/v1/` parse with these, and `openapi.ts` writes the OpenAPI document from
 * them, so the document cannot drift from what the routes accept and send.
 */
import { z } from 'zod';
import type { Role } from '@/lib/server/actor';
import { usernameSchema } from '@/lib/validation/accounts';
import { STUDY_KINDS } from '@/lib/validation/labels';
import { createStudySchema } from '@/lib/validation/studies';
import { PAGE_DEFAULT, PAGE_MAX } from './cursor';
import {
  annotationsImportSchema,
  createdSchema,
  fileSchema,
  itemsImportSchema,
  judgeImportSchema,
  meSchema,
  nextSchema,
  pageOf,
  reportSchema,
  studySchema,
  studySummarySchema,
  submissionBodySchema,
  submissionSchema,
} from './schemas';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type Operation = {
  operationId: string;
  method: Method;
  /** OpenAPI path template, e.g. `/api/v1/studies/{id}`. */
  path: string;
  tag: 'Account' | 'Studies' | 'Data' | 'Review';
  summary: string;
  description?: string;
  /** Who may call it; the use-case behind it is what enforces this. */
  roles: readonly Role[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body is a file, streamed to disk by the handler (never parsed here, never held in memory): its media types. */
  upload?: { mediaTypes: readonly string[]; description: string };
  /**
   * The status and schema of a successful answer; `download` when it is a file (streamed) rather than JSON, with its
   * media types.
   */
  response: { status: 200 | 201; schema: z.ZodType; description: string; download?: readonly string[] };
};

const STAFF = ['admin', 'lead'] as const;
const EVERYONE = ['admin', 'lead', 'annotator'] as const;

const studyParams = z.object({ id: z.coerce.number().int().positive().describe('The study id.') });
const assignmentParams = z.object({ id: z.coerce.number().int().positive().describe('The assignment id (`currentId` of the queue).') });

const IMPORT_NOTE =
  'The body is the file itself, as the upload form takes it (streamed to disk, so its size is not limited by memory). All or nothing: a refused file writes nothing, and the problem document lists every bad line and field in `errors`.';
const FILE_TYPES = ['application/x-ndjson', 'text/csv', 'application/octet-stream'] as const;
const filename = z.string().max(200).optional().describe('The name recorded with the import (shown in the study history).');

export const itemsQuery = z.object({
  format: z
    .string()
    .max(64)
    .default('concord')
    .describe("The file's format: one of the study kind's item formats (see the New study form)."),
  filename,
});
export const annotationsQuery = itemsQuery.extend({
  format: z.string().max(64).default('concord').describe("The file's format: one of the study kind's annotation formats."),
});
export const judgeRunQuery = z.object({
  name: z.string().trim().min(1).max(200).optional().describe("The judge run's name (by default the one the file gives)."),
  format: z.string().max(64).default('concord').describe("The file's format: one of the study kind's judge formats."),
  filename,
});
export const groundTruthQuery = z.object({
  format: z.enum(['jsonl', 'csv']).default('jsonl').describe('JSON Lines (one object per item and criterion) or CSV.'),
});
const option = (what: string) => z.string().max(200).optional().describe(what);
export const reportQuery = z.object({
  judge: option('alignment, hybrid, certify: the judge run compared with the people.'),
  criterion: option('hybrid, certify: the criterion.'),
  target: option('hybrid, certify: the target agreement.'),
  epsilon: option('certify: the tolerance; hybrid: the error rate accepted labels are certified below (default 0.05).'),
  delta: option('hybrid: the chance the acceptance certificate is wrong (default 0.05).'),
  tiePolicy: option('leaderboard: how ties count.'),
  bootstrap: option('agreement, alignment, leaderboard: bootstrap replicates (default 1000; 0 for point estimates only).'),
  sample: option('rubric reports: the judge sample to read (1 by default).'),
  lenient: option('rubric-hybrid: fold labels leniently (1 or 0).'),
});
export const reportParams = studyParams.extend({
  report: z
    .string()
    .max(64)
    .describe(
      'agreement, alignment, leaderboard, hybrid, certify, bias, or for rubric studies rubric-agreement, rubric-alignment, … (as `concord report`).',
    ),
});

export const listStudiesQuery = z.object({
  cursor: z.string().max(64).optional().describe("From the previous page's `nextCursor`."),
  limit: z.coerce.number().int().min(1).max(PAGE_MAX).default(PAGE_DEFAULT).describe(`Rows per page, at most ${PAGE_MAX}.`),
  kind: z.enum(STUDY_KINDS).optional(),
  status: z.enum(['draft', 'open', 'closed', 'archived']).optional().describe('Archived studies are listed only when asked for.'),
  q: z.string().trim().max(200).optional().describe('Part of the name, or the id.'),
});

export const membersBody = z.object({
  reviewers: z.array(usernameSchema).max(500).describe('Usernames of the reviewers, in order (the order forms the sets of fixed_sets).'),
  mode: z.enum(['balanced', 'fixed_sets']).default('balanced'),
  adjudicator: usernameSchema.nullable().optional().describe('Who settles disagreements; null for none.'),
});

export const judgeRunParams = studyParams.extend({
  run: z.string().min(1).max(200).describe('The name of a judge run launched from Concord.'),
});
export const examplesBody = z
  .object({
    k: z.number().int().min(1).max(20).optional().describe('How many items to draw at random (with `seed`); or give `items`.'),
    seed: z.number().int().min(0).optional().describe('The seed of the draw (1 by default): the same seed draws the same items.'),
    items: z.array(z.string().min(1)).min(1).max(20).optional().describe('The items chosen, by id (each one the judge got wrong).'),
  })
  .strict();
const examplesVersionSchema = z
  .object({
    template: z.object({ id: z.number().int(), name: z.string(), version: z.number().int(), body: z.string(), createdAt: z.string() }),
    from: z.object({ run: z.string(), template: z.object({ name: z.string(), version: z.number().int() }) }),
    disagreements: z.number().int().describe('Items where the run’s judge disagreed with the settled ground truth.'),
    chosen: z.union([z.object({ by: z.literal('seed'), seed: z.number().int() }), z.object({ by: z.literal('lead') })]),
    examples: z.array(
      z.object({
        item: z.string(),
        criterion: z.string(),
        settled: z.array(z.object({ criterion: z.string(), label: z.string() })),
      }),
    ),
  })
  .describe('The new template version and the items it carries as worked examples.');

export const reviewQueueBody = z
  .looseObject({
    order: z
      .enum(['uniform', 'active'])
      .optional()
      .describe("`uniform` (the default): the hybrid plan's order; `active`: a draw by the judge's uncertainty."),
    judge: z.string().min(1).max(200).describe('The judge run whose items are sent.'),
    usernames: z.array(usernameSchema).min(1).max(500).describe('The people who get the items, one review each.'),
  })
  .describe(
    'The options of `concord queue open`, named in camel case: `criterion`, and for the uniform order `plan` (pado | guaranteed), `target`, `epsilon`, `delta`, `lenient`, `sample`, `perTutor`; for the active order `source` (orders | samples | confidence | second_judge), `secondJudge`, `budget`, `tau`. An option of the other order is refused.',
  );
const reviewQueueSchema = z
  .record(z.string(), z.unknown())
  .describe(
    'What `concord queue open --json` prints: the items routed and checked (uniform) or the stored draw (active), and how many each person got.',
  );

const goldSettingsBody = z
  .object({
    ratePct: z
      .number()
      .int()
      .min(0)
      .max(50)
      .describe("Share of each reviewer's queue made of gold items (0–50 %); fixed once the study opens."),
    alertBelowPct: z
      .number()
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe('Accuracy on gold (%) below which the study page names a reviewer; null: never.'),
  })
  .strict();
const goldSettingsSchema = z.object({ ratePct: z.number().int(), alertBelowPct: z.number().int().nullable() });
const goldItemParams = studyParams.extend({ item: z.string().min(1).describe("The item's id in the imported file.") });
const goldItemBody = z
  .object({
    labels: z
      .record(z.string(), z.string().nullable())
      .describe(
        "Known answer per unit (criterion, rubric dimension, or `decision` of a flow) in the study's label names; null unmarks a unit.",
      ),
  })
  .strict();
const goldItemSchema = z
  .object({
    itemId: z.number().int(),
    units: z.array(z.object({ id: z.string(), labels: z.array(z.string()) })),
    labels: z.record(z.string(), z.string()),
  })
  .describe('The units the item can have gold answers on, and its gold answers now (empty: not gold).');
const exclusionParams = studyParams.extend({ userId: z.coerce.number().int().positive().describe("The annotator's account id.") });
export const exclusionsSchema = z
  .object({
    labels: z.number().int().min(0).describe('Labels the exclusions leave out of the ground truth and the reports.'),
    annotators: z.array(
      z.object({
        userId: z.number().int(),
        username: z.string(),
        labels: z.number().int().min(0),
        excludedBy: z.string(),
        excludedAt: z.string().describe('ISO 8601.'),
      }),
    ),
  })
  .describe("The study's excluded annotators, as every report's `excluded` field gives them.");

export const OPERATIONS = {
  me: {
    operationId: 'getMe',
    method: 'GET',
    path: '/api/v1/me',
    tag: 'Account',
    summary: 'Who the token acts as, and the studies they work in',
    roles: EVERYONE,
    response: { status: 200, schema: meSchema, description: "The token's account with its current role." },
  },
  listStudies: {
    operationId: 'listStudies',
    method: 'GET',
    path: '/api/v1/studies',
    tag: 'Studies',
    summary: 'List studies, oldest first, a page at a time',
    roles: STAFF,
    query: listStudiesQuery,
    response: { status: 200, schema: pageOf(studySummarySchema), description: 'A page of studies with their progress.' },
  },
  createStudy: {
    operationId: 'createStudy',
    method: 'POST',
    path: '/api/v1/studies',
    tag: 'Studies',
    summary: 'Create a draft study (the fields of the New study form)',
    roles: STAFF,
    body: createStudySchema,
    response: { status: 201, schema: createdSchema, description: 'The new study.' },
  },
  getStudy: {
    operationId: 'getStudy',
    method: 'GET',
    path: '/api/v1/studies/{id}',
    tag: 'Studies',
    summary: 'A study with its settings, members and progress',
    roles: STAFF,
    params: studyParams,
    response: { status: 200, schema: studySchema, description: 'The study.' },
  },
  setMembers: {
    operationId: 'setStudyMembers',
    method: 'PUT',
    path: '/api/v1/studies/{id}/members',
    tag: 'Studies',
    summary: "Set a study's reviewers and adjudicator",
    roles: STAFF,
    params: studyParams,
    body: membersBody,
    response: { status: 200, schema: studySchema, description: 'The study as it now is.' },
  },
  openStudy: {
    operationId: 'openStudy',
    method: 'POST',
    path: '/api/v1/studies/{id}/open',
    tag: 'Studies',
    summary: 'Open a study: draw the assignment plan and let reviewers start',
    roles: STAFF,
    params: studyParams,
    response: { status: 200, schema: studySchema, description: 'The study as it now is.' },
  },
  importItems: {
    operationId: 'importItems',
    method: 'POST',
    path: '/api/v1/studies/{id}/items',
    tag: 'Data',
    summary: 'Import items from a file (JSON Lines, …) into a draft study',
    description: IMPORT_NOTE,
    roles: STAFF,
    params: studyParams,
    query: itemsQuery,
    upload: { mediaTypes: FILE_TYPES, description: 'The items file.' },
    response: { status: 200, schema: itemsImportSchema, description: 'What was imported.' },
  },
  importAnnotations: {
    operationId: 'importAnnotations',
    method: 'POST',
    path: '/api/v1/studies/{id}/annotations',
    tag: 'Data',
    summary: 'Import prior annotations (labels made elsewhere) for the items of a study',
    description: IMPORT_NOTE,
    roles: STAFF,
    params: studyParams,
    query: annotationsQuery,
    upload: { mediaTypes: FILE_TYPES, description: 'The annotations file.' },
    response: { status: 200, schema: annotationsImportSchema, description: 'What was imported.' },
  },
  importJudgeRun: {
    operationId: 'importJudgeRun',
    method: 'POST',
    path: '/api/v1/studies/{id}/judge-runs',
    tag: 'Data',
    summary: "Import a judge run: an LLM judge's verdicts on the study's items",
    description: `${IMPORT_NOTE} Verdicts that cannot be read are left out and listed in \`unparsed\`.`,
    roles: STAFF,
    params: studyParams,
    query: judgeRunQuery,
    upload: { mediaTypes: FILE_TYPES, description: 'The judge file.' },
    response: { status: 200, schema: judgeImportSchema, description: 'The run as imported.' },
  },
  openReviewQueue: {
    operationId: 'openReviewQueue',
    method: 'POST',
    path: '/api/v1/studies/{id}/review-queues',
    tag: 'Studies',
    summary: "Send a judge run's items to people: in the hybrid plan's order or by an active draw (pairwise and rubric studies)",
    description:
      "As the Hybrid tab's queue form and `concord queue open` do: the uniform order sends what the plan leaves to people (Padó's plan with its random checks, or what error-bounded acceptance does not accept); the active order draws items with probabilities from the judge's uncertainty and stores the draw, which the corrected leaderboard and the certification then weight.",
    roles: STAFF,
    params: studyParams,
    body: reviewQueueBody,
    response: { status: 200, schema: reviewQueueSchema, description: 'The queue opened.' },
  },
  judgeExamples: {
    operationId: 'createTemplateFromDisagreements',
    method: 'POST',
    path: '/api/v1/studies/{id}/judge-runs/{run}/examples',
    tag: 'Data',
    summary: "A new version of a launched run's template with worked examples from its disagreements (pairwise and rubric studies)",
    description:
      "Worked examples are items where the run's judge disagreed with the settled ground truth, each shown as the template shows an item and answered with the settled label. Comparing runs leaves those items out of every run's alignment and κ. The same seed (or the same items) gives the same version again.",
    roles: STAFF,
    params: judgeRunParams,
    body: examplesBody,
    response: { status: 201, schema: examplesVersionSchema, description: 'The new version (or the equal one already stored).' },
  },
  groundTruth: {
    operationId: 'getGroundTruth',
    method: 'GET',
    path: '/api/v1/studies/{id}/ground-truth',
    tag: 'Data',
    summary: "Download a study's ground truth (pairwise and rubric studies), streamed",
    description:
      'One row per complete item and criterion: the label, its provenance and each reviewer’s label. Items not every planned reviewer has submitted yet are left out; the header `x-concord-incomplete-items` says how many.',
    roles: STAFF,
    params: studyParams,
    query: groundTruthQuery,
    response: { status: 200, schema: fileSchema, description: 'The ground truth file.', download: ['application/x-ndjson', 'text/csv'] },
  },
  getReport: {
    operationId: 'getReport',
    method: 'GET',
    path: '/api/v1/studies/{id}/reports/{report}',
    tag: 'Data',
    summary: 'A report of a study, as `concord report … --json` prints it',
    description:
      'The options are those of `concord report`, as query parameters; a report ignores the options it does not read. A report with bootstrap intervals takes some seconds.',
    roles: STAFF,
    params: reportParams,
    query: reportQuery,
    response: { status: 200, schema: reportSchema, description: 'The report.' },
  },
  setGoldSettings: {
    operationId: 'setGoldSettings',
    method: 'PUT',
    path: '/api/v1/studies/{id}/gold',
    tag: 'Studies',
    summary: "Set a study's gold rate and the accuracy threshold of its notice (audited)",
    roles: STAFF,
    params: studyParams,
    body: goldSettingsBody,
    response: { status: 200, schema: goldSettingsSchema, description: 'The gold settings as they now are.' },
  },
  setItemGold: {
    operationId: 'setItemGold',
    method: 'PUT',
    path: '/api/v1/studies/{id}/gold/{item}',
    tag: 'Studies',
    summary: 'Give an item known answers (gold), or take them away (audited; every change kept)',
    roles: STAFF,
    params: goldItemParams,
    body: goldItemBody,
    response: { status: 200, schema: goldItemSchema, description: "The item's gold answers as they now are." },
  },
  listExclusions: {
    operationId: 'listAnnotatorExclusions',
    method: 'GET',
    path: '/api/v1/studies/{id}/exclusions',
    tag: 'Studies',
    summary: "The annotators excluded from a study's ground truth and reports",
    roles: STAFF,
    params: studyParams,
    response: { status: 200, schema: exclusionsSchema, description: 'The exclusions and the labels they leave out.' },
  },
  excludeAnnotator: {
    operationId: 'excludeAnnotator',
    method: 'POST',
    path: '/api/v1/studies/{id}/exclusions/{userId}',
    tag: 'Studies',
    summary: "Exclude an annotator: their labels leave the study's ground truth and reports (audited, reversible)",
    roles: STAFF,
    params: exclusionParams,
    response: { status: 200, schema: exclusionsSchema, description: 'The exclusions as they now are.' },
  },
  includeAnnotator: {
    operationId: 'includeAnnotator',
    method: 'DELETE',
    path: '/api/v1/studies/{id}/exclusions/{userId}',
    tag: 'Studies',
    summary: 'Include an excluded annotator again: their labels count once more (audited)',
    roles: STAFF,
    params: exclusionParams,
    response: { status: 200, schema: exclusionsSchema, description: 'The exclusions as they now are.' },
  },
  nextItem: {
    operationId: 'getNextItem',
    method: 'GET',
    path: '/api/v1/studies/{id}/next',
    tag: 'Review',
    summary: 'The next item to review, exactly as the review screen receives it (blind)',
    description:
      "The reviewer's queue of the study and its current assignment; submit it with `POST /api/v1/assignments/{id}/submission`. Asking again without submitting gives the same item.",
    roles: EVERYONE,
    params: studyParams,
    response: { status: 200, schema: nextSchema, description: 'The queue and the current item.' },
  },
  submit: {
    operationId: 'submitAssignment',
    method: 'POST',
    path: '/api/v1/assignments/{id}/submission',
    tag: 'Review',
    summary: 'Submit a review of an assignment (the same body, rules and idempotency as the review screen)',
    description:
      'Idempotent by `requestId`: sending the same submission again writes nothing and answers `duplicate: true`. The answer carries the queue as it now stands.',
    roles: EVERYONE,
    params: assignmentParams,
    body: submissionBodySchema,
    response: { status: 200, schema: submissionSchema, description: 'The submission and the queue after it.' },
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;
