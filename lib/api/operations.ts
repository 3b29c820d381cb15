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
import { createdSchema, meSchema, pageOf, studySchema, studySummarySchema } from './schemas';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type Operation = {
  operationId: string;
  method: Method;
  /** OpenAPI path template, e.g. `/api/v1/studies/{id}`. */
  path: string;
  tag: 'Account' | 'Studies';
  summary: string;
  description?: string;
  /** Who may call it; the use-case behind it is what enforces this. */
  roles: readonly Role[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The status and schema of a successful answer. */
  response: { status: 200 | 201; schema: z.ZodType; description: string };
};

const STAFF = ['admin', 'lead'] as const;
const EVERYONE = ['admin', 'lead', 'annotator'] as const;

const studyParams = z.object({ id: z.coerce.number().int().positive().describe('The study id.') });

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
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;
