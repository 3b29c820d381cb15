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

/** The wrapper of every route handler: auth, then the handler, with errors mapped to JSON and a status. */
export function route(handler: (actor: Actor, request: Request, params: Record<string, string>) => Promise<Response> | Response) {
  return async (request: Request, context: RouteContext) => {
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
