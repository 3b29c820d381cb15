import 'server-only';
import { z } from 'zod';
import type { Operation } from '@/lib/api/operations';
import { fieldErrorsToProblemErrors, problem, type Problem, type ProblemError } from '@/lib/api/problem';
import { env } from '@/lib/env';
import type { Actor } from '@/lib/server/actor';
import { withToken } from '@/lib/server/accounts/token-context';
import { actorForToken } from '@/lib/server/accounts/tokens';
import { DomainError } from '@/lib/server/errors';
import { RateLimiter } from './rate-limit';

/**
 * The wrapper of every route of the HTTP API (`/api/v1`). It is transport only: the bearer token is the sole
 * credential (no cookie is read or set, so a page of another site cannot act through a signed-in browser), the
 * token's rate limit, parsing of the path, query and body with the operation's schemas, and errors as RFC 9457
 * problem documents. What may be done, and how, is the use-case's, the same one the screens and the CLI call.
 */

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type ApiContext<O extends Operation> = {
  actor: Actor;
  token: { id: number; name: string };
  params: Out<O['params']>;
  query: Out<O['query']>;
  body: Out<O['body']>;
  /** For an operation with `upload`, the body is left unread: stream it from here (`withUploadedFile`). */
  request: Request;
};

const HEADERS = { 'cache-control': 'no-store' };
let limiter: RateLimiter | undefined;
const rateLimiter = () => (limiter ??= new RateLimiter(env().CONCORD_API_RATE, env().CONCORD_API_BURST));

export function problemResponse(p: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(p), {
    status: p.status,
    headers: { ...HEADERS, 'content-type': 'application/problem+json', ...headers },
  });
}

function parsed<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const errors: ProblemError[] = r.error.issues.map((i) => ({ path: [where, ...i.path.map(String)].join('.'), message: i.message }));
  throw new ApiProblem(problem('invalid', `The ${where} is not valid: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors));
}

class ApiProblem extends Error {
  constructor(
    readonly problem: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.detail);
  }
}

function fromDomainError(e: DomainError): Problem {
  const details = e.details as { errors?: { line?: number; path?: string; message: string }[] } | undefined;
  const fileErrors: ProblemError[] = (details?.errors ?? []).map((x) => ({
    ...(x.line ? { line: x.line } : {}),
    path: x.path ?? '',
    message: x.message,
  }));
  return problem(e.code, e.message, [...fieldErrorsToProblemErrors(e.fieldErrors), ...fileErrors]);
}

function authenticate(request: Request) {
  const header = request.headers.get('authorization');
  const m = header ? /^Bearer[ ]+(\S+)$/i.exec(header.trim()) : null;
  if (!m) {
    throw new ApiProblem(
      problem(
        'unauthenticated',
        'Send a personal access token: Authorization: Bearer cnc_… (make one on your account page or with `concord token create`).',
      ),
      {
        'www-authenticate': 'Bearer realm="concord"',
      },
    );
  }
  try {
    return actorForToken(m[1]);
  } catch (e) {
    if (e instanceof DomainError)
      throw new ApiProblem(problem('unauthenticated', e.message), { 'www-authenticate': 'Bearer realm="concord", error="invalid_token"' });
    throw e;
  }
}

async function readBody(request: Request, path: string): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ApiProblem(
      problem(
        'unsupported_media_type',
        `${request.method} ${path} takes a JSON body with content-type: application/json, not ${type ? `"${type}"` : 'no content type'}.`,
      ),
    );
  }
  try {
    return await request.json();
  } catch (e) {
    throw new ApiProblem(
      problem('invalid', `The body is not valid JSON: ${(e as Error).message}`, [{ path: 'body', message: 'Not valid JSON.' }]),
    );
  }
}

/**
 * An upload's body is the file itself, left unread for the handler to stream to disk: nothing of it is held in memory
 * here. Only a multipart form is refused up front — its bytes are not the file, and a client sending one (`requests`'
 * `files=`) would otherwise meet a puzzling refusal of line 1.
 */
function checkUpload(request: Request, path: string): void {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    throw new ApiProblem(
      problem(
        'unsupported_media_type',
        `${request.method} ${path} takes the file itself as the body (e.g. content-type: application/x-ndjson), not a ${type} form.`,
      ),
    );
  }
}

type RouteContext = { params: Promise<Record<string, string>> };

export function apiRoute<O extends Operation>(operation: O, handler: (ctx: ApiContext<O>) => unknown) {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    const path = new URL(request.url).pathname;
    try {
      const { actor, token } = authenticate(request);
      const wait = rateLimiter().take(token.id);
      if (wait !== null) {
        throw new ApiProblem(
          problem(
            'throttled',
            `This token sent more than ${env().CONCORD_API_BURST} requests in a burst or ${env().CONCORD_API_RATE} a second; wait ${wait} s.`,
          ),
          {
            'retry-after': String(wait),
          },
        );
      }
      const url = new URL(request.url);
      const params = operation.params ? parsed(operation.params, await context.params, 'path') : undefined;
      const query = operation.query ? parsed(operation.query, Object.fromEntries(url.searchParams), 'query') : undefined;
      if (operation.upload) checkUpload(request, path);
      const body = operation.body ? parsed(operation.body, await readBody(request, path), 'body') : undefined;
      const ctx = { actor, token, params, query, body, request } as ApiContext<O>;
      const result = await withToken(token.id, () => handler(ctx));
      if (result instanceof Response) return result;
      return new Response(JSON.stringify(result), {
        status: operation.response.status,
        headers: { ...HEADERS, 'content-type': 'application/json' },
      });
    } catch (e) {
      if (e instanceof ApiProblem) return problemResponse(e.problem, e.headers);
      if (e instanceof DomainError) return problemResponse(fromDomainError(e));
      console.error(e);
      return problemResponse(problem('internal', 'Something went wrong on the server; nothing was changed. Please try again.'));
    }
  };
}
