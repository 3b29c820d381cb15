/**
 * The OpenAPI 3.1 document of the HTTP API, written from the operations' zod schemas (`operations.ts`): nothing in
 * it is typed by hand, so it says exactly what the routes parse and send. Served at `/api/openapi.json`, shown to
 * people at `/docs/api`.
 */
import { z } from 'zod';
import { OPERATIONS, type Operation } from './operations';
import { PROBLEM_TITLES } from './problem';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

function parameters(op: Operation) {
  const list: Record<string, unknown>[] = [];
  for (const [where, schema] of [
    ['path', op.params],
    ['query', op.query],
  ] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const s = jsonSchema(field, 'input');
      const { description, ...rest } = s;
      const optional = field.safeParse(undefined).success;
      list.push({ name, in: where, required: where === 'path' || !optional, ...(description ? { description } : {}), schema: rest });
    }
  }
  return list;
}

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem document.',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', description: 'A link to where this kind of problem is explained.' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string', description: 'What was wrong, in words.' },
    errors: {
      type: 'array',
      description: 'Every field, or line of a refused file, that was wrong.',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' }, line: { type: 'integer', minimum: 1 } },
      },
    },
  },
};

const REFUSALS = ['invalid', 'unauthenticated', 'forbidden', 'not_found', 'conflict', 'unsupported_media_type', 'throttled'] as const;

/** A file in a body: a string of that media type (OpenAPI 3.1 says so with `contentMediaType`). */
const fileContent = (types: readonly string[], description?: string) =>
  Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', contentMediaType: t, ...(description ? { description } : {}) } }]));

function requestBody(op: Operation) {
  if (op.upload) return { requestBody: { required: true, description: op.upload.description, content: fileContent(op.upload.mediaTypes) } };
  if (op.body) return { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } } };
  return {};
}

function responses(op: Operation) {
  const out: Record<string, unknown> = {
    [op.response.status]: {
      description: op.response.description,
      content: op.response.download
        ? fileContent(op.response.download)
        : { 'application/json': { schema: jsonSchema(op.response.schema, 'output') } },
    },
  };
  for (const kind of REFUSALS) {
    if (kind === 'unsupported_media_type' && !op.body && !op.upload) continue;
    out[PROBLEM_TITLES[kind].status] = { $ref: `#/components/responses/${kind}` };
  }
  return out;
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of Object.values(OPERATIONS) as Operation[]) {
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      description: [op.description, `Who may call it: ${op.roles.join(', ')}.`].filter(Boolean).join('\n\n'),
      parameters: parameters(op),
      ...requestBody(op),
      responses: responses(op),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Concord API',
      version: '1',
      description: 'Drive Concord from notebooks and pipelines. Every call carries a personal access token: `Authorization: Bearer cnc_…`.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: [
      { name: 'Account', description: 'Who the token acts as.' },
      { name: 'Studies', description: 'Create, read, staff and open studies.' },
      { name: 'Data', description: 'Import items, prior annotations and judge runs; read ground truth and reports.' },
      { name: 'Review', description: 'For reviewers: the next item and its submission.' },
    ],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'cnc_ followed by 43 characters' } },
      schemas: { Problem: PROBLEM_SCHEMA },
      responses: Object.fromEntries(
        REFUSALS.map((kind) => [
          kind,
          {
            description: PROBLEM_TITLES[kind].title,
            content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
          },
        ]),
      ),
    },
  };
}
