import 'server-only';
import { NextResponse } from 'next/server';
import type { Actor } from '@/lib/server/actor';
import { DomainError, HTTP_STATUS } from '@/lib/server/errors';
import { requireUser } from './guards';

/**
 * API answers are small JSON documents asked for item after item: `no-transform` keeps the server from gzipping
 * each one, which cost more CPU than the whole use-case behind it. (Pages, scripts and exports are still compressed.)
 */
const JSON_CACHE_CONTROL = 'no-store, no-transform';

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; fieldErrors?: Record<string, string>; details?: unknown };

/** Maps a thrown error to what a caller may see: expected failures verbatim, anything else as a generic message. */
function toFailure(e: unknown): { status: number; body: Extract<ActionResult<never>, { ok: false }> } {
  if (e instanceof DomainError) {
    return { status: HTTP_STATUS[e.code], body: { ok: false, error: e.message, fieldErrors: e.fieldErrors, details: e.details } };
  }
  console.error(e);
  return { status: 500, body: { ok: false, error: 'Something went wrong on the server; nothing was changed. Please try again.' } };
}

/**
 * The body of every server action: who is asking (re-read from the database), then the use-case, which does its
 * own parsing and object-level checks. Expected failures come back as values; the rest is logged.
 */
export async function runAction<T>(fn: (actor: Actor) => T | Promise<T>): Promise<ActionResult<T>> {
  try {
    const actor = await requireUser();
    return { ok: true, data: await fn(actor) };
  } catch (e) {
    return toFailure(e).body;
  }
}

type RouteContext = { params: Promise<Record<string, string>> };

/** What a route's body is: JSON (the default), or a file sent raw, as the import forms and scripts upload it. */
export type RouteOptions = { body?: 'json' | 'upload' };

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const refusal = (status: number, error: string) =>
  NextResponse.json({ ok: false, error }, { status, headers: { 'cache-control': JSON_CACHE_CONTROL } });

/** The host the request was addressed to, as Next's own server-action check reads it (a proxy may forward it). */
function addressedHost(headers: Headers): string | null {
  return headers.get('x-forwarded-host')?.split(',')[0].trim() || headers.get('host');
}

/**
 * Refuses a change another site's page is making with the user's cookie: browsers name the page's origin in
 * `Origin` and the relation in `Sec-Fetch-Site` on every such request. A client that sends neither is not a
 * browser, and carries no cookie it was not given. JSON routes also want a JSON content type, which no page of
 * another site can send without the app agreeing to it first (CORS).
 */
function refuse(request: Request, body: RouteOptions['body']): Response | null {
  if (!STATE_CHANGING.has(request.method)) return null;
  const path = new URL(request.url).pathname;
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  let foreign = site === 'cross-site' || site === 'same-site';
  if (origin !== null && !foreign) {
    try {
      foreign = new URL(origin).host !== addressedHost(request.headers);
    } catch {
      foreign = true; // "null" or garbage: not this app's pages
    }
  }
  if (foreign) {
    return refusal(
      403,
      `Refused: ${request.method} ${path} was sent from another site (${origin ? `origin ${origin}` : `Sec-Fetch-Site: ${site}`}). Make changes from Concord's own pages.`,
    );
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (body !== 'upload' && type !== 'application/json') {
    return refusal(
      415,
      `${request.method} ${path} takes a JSON body with content-type: application/json, not ${type ? `"${type}"` : 'no content type'}.`,
    );
  }
  return null;
}

/**
 * The wrapper of every route handler: refuses changes from other sites, then auth, then the handler, with errors
 * mapped to JSON and a status.
 */
export function route(
  handler: (actor: Actor, request: Request, params: Record<string, string>) => Promise<Response> | Response,
  options: RouteOptions = {},
) {
  return async (request: Request, context: RouteContext) => {
    const refused = refuse(request, options.body ?? 'json');
    if (refused) return refused;
    try {
      const actor = await requireUser();
      return await handler(actor, request, await context.params);
    } catch (e) {
      const { status, body } = toFailure(e);
      return NextResponse.json(body, { status, headers: { 'cache-control': JSON_CACHE_CONTROL } });
    }
  };
}

export const json = (data: unknown, init?: ResponseInit) =>
  NextResponse.json(data, { ...init, headers: { 'cache-control': JSON_CACHE_CONTROL, ...(init?.headers ?? {}) } });

/** `route` for a body that is a file sent raw (the import forms post the file itself, as scripts do). */
export const uploadRoute = (handler: Parameters<typeof route>[0]) => route(handler, { body: 'upload' });
