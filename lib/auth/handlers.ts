import 'server-only';
import { NextResponse } from 'next/server';
import type { Actor } from '@/lib/server/actor';
import { requireUser } from './guards';
import { JSON_CACHE_CONTROL, refusal, toFailure, type BodyKind, type Failure } from './request-rules';

export type ActionResult<T> = { ok: true; data: T } | Failure;

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

/** How a route reads its body (`request-rules.ts`). */
export type RouteOptions = { body?: BodyKind };

const refusalResponse = (status: number, error: string) =>
  NextResponse.json({ ok: false, error }, { status, headers: { 'cache-control': JSON_CACHE_CONTROL } });

/**
 * The wrapper of every route handler: refuses changes from other sites, then auth, then the handler, with errors
 * mapped to JSON and a status.
 */
export function route(
  handler: (actor: Actor, request: Request, params: Record<string, string>) => Promise<Response> | Response,
  options: RouteOptions = {},
) {
  return async (request: Request, context: RouteContext) => {
    const head = { method: request.method, path: new URL(request.url).pathname, header: (n: string) => request.headers.get(n) };
    const refused = refusal(head, options.body ?? 'json');
    if (refused) return refusalResponse(refused.status, refused.error);
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
