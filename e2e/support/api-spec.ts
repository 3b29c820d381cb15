// What the HTTP API specs (api-data.spec.ts: imports through the body; api-review.spec.ts: reviewing and reading
// over the API) share: a server and database of the spec's own, three accounts, tokens made with the CLI, and every
// JSON answer checked against the OpenAPI document the server serves.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, request as playwrightRequest, type APIRequestContext, type APIResponse } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { OwnServer, cliOn, withReadonlyDb } from './server';

export const PASSWORD = 'api-data-spec-password';
export const LEAD = 'data-lead';
export const ANN = 'data-ann';
export const OTHER = 'data-other';
// Strings of the imported data that an annotator must never be sent.
export const SECRET = /ZQXSRC|ZQXJUDGE/;

type OpenApi = {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: Record<string, Record<string, unknown>>;
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

export function pairwiseItems(prefix: string, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${i}`,
    problem: `What is ${i + 2} × 3?`,
    principles: ['Feedback'],
    history: [
      { role: 'tutor', text: 'What do you get?' },
      { role: 'student', text: `I think it is ${i + 5}.` },
    ],
    a: { source: 'ZQXSRC-alpha-model', text: `Let us check: ${i + 2} groups of 3.` },
    b: { source: 'ZQXSRC-beta-reference', text: 'Try adding 3 again and again.' },
  }));
}

/** The production build on a database of its own, on `port`, with a lead and two annotators. */
export class ApiSpecServer {
  dir = '';
  dbFile = '';
  server!: OwnServer;
  api!: APIRequestContext;
  private doc!: OpenApi;

  constructor(readonly port: number) {}

  async start() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `concord-api-${this.port}-`));
    this.dbFile = path.join(this.dir, 'concord.db');
    this.server = new OwnServer(this.dbFile, this.port, { CONCORD_API_BURST: '200', CONCORD_API_RATE: '50' });
    this.cli(['user', 'add', LEAD, '--role', 'lead', '--name', 'Data Lead'], `${PASSWORD}\n`);
    this.cli(['user', 'add', ANN, '--role', 'annotator', '--name', 'Data Annotator'], `${PASSWORD}\n`);
    this.cli(['user', 'add', OTHER, '--role', 'annotator', '--name', 'Other Annotator'], `${PASSWORD}\n`);
    await this.server.start();
    this.api = await playwrightRequest.newContext({ baseURL: this.server.baseURL });
    this.doc = (await (await this.api.get('/api/openapi.json')).json()) as OpenApi;
  }

  async stop() {
    await this.api?.dispose();
    await this.server?.kill9();
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }

  cli = (args: string[], input?: string) => cliOn(this.dbFile, args, input);

  tokenOf = (username: string, name: string) =>
    (JSON.parse(this.cli(['token', 'create', '--user', username, '--name', name, '--json'])) as { token: string }).token;

  sql = <T>(query: string, ...args: unknown[]) =>
    withReadonlyDb(
      this.dbFile,
      (db) =>
        db
          .prepare(query)
          .pluck()
          .get(...args) as T,
    );

  /** Checks a JSON answer against what the document says this operation sends with this status; returns the body. */
  documented = async (res: APIResponse, method: string, template: string): Promise<unknown> => {
    const status = String(res.status());
    const declared = this.doc.paths[template]?.[method.toLowerCase()]?.responses[status] as
      { $ref?: string; content?: Record<string, { schema: unknown }> } | undefined;
    expect(declared, `${method} ${template} documents status ${status}`).toBeTruthy();
    const body = await res.json();
    const schema = declared!.$ref ? this.doc.components.schemas.Problem : declared!.content!['application/json'].schema;
    expect(res.headers()['content-type']).toContain(declared!.$ref ? 'application/problem+json' : 'application/json');
    const validate = ajv.compile(schema as object);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    return body;
  };

  createStudy = async (token: string, body: Record<string, unknown>): Promise<number> => {
    const res = await this.api.post('/api/v1/studies', { headers: bearer(token), data: body });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
}
