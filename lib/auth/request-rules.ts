import 'server-only';
import { DomainError, HTTP_STATUS } from '@/lib/server/errors';

/**
 * The rules every JSON route applies to a request and its answer, free of Next: `route()` (`handlers.ts`) applies
 * them to Next's Web `Request`, the direct routes (`direct-routes.ts`) to Node's request, so the two answer alike.
 */

/**
 * API answers are small JSON documents asked for item after item: `no-transform` keeps the server from gzipping
 * each one, which cost more CPU than the whole use-case behind it. (Pages, scripts and exports are still compressed.)
 */
export const JSON_CACHE_CONTROL = 'no-store, no-transform';

export type Failure = { ok: false; error: string; fieldErrors?: Record<string, string>; details?: unknown };

/** Maps a thrown error to what a caller may see: expected failures verbatim, anything else as a generic message. */
export function toFailure(e: unknown): { status: number; body: Failure } {
  if (e instanceof DomainError) {
    return { status: HTTP_STATUS[e.code], body: { ok: false, error: e.message, fieldErrors: e.fieldErrors, details: e.details } };
  }
  console.error(e);
  return { status: 500, body: { ok: false, error: 'Something went wrong on the server; nothing was changed. Please try again.' } };
}

/** What a route's body is: JSON (the default), or a file sent raw, as the import forms and scripts upload it. */
export type BodyKind = 'json' | 'upload';

/** The parts of a request the rules read. */
export type RequestHead = { method: string; path: string; header: (name: string) => string | null };

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The host the request was addressed to, as Next's own server-action check reads it (a proxy may forward it). */
function addressedHost(request: RequestHead): string | null {
  return request.header('x-forwarded-host')?.split(',')[0].trim() || request.header('host');
}

/**
 * Refuses a change another site's page is making with the user's cookie: browsers name the page's origin in
 * `Origin` and the relation in `Sec-Fetch-Site` on every such request. A client that sends neither is not a
 * browser, and carries no cookie it was not given. JSON routes also want a JSON content type, which no page of
 * another site can send without the app agreeing to it first (CORS). Null when the request may go on.
 */
export function refusal(request: RequestHead, body: BodyKind): { status: number; error: string } | null {
  const { method, path } = request;
  if (!STATE_CHANGING.has(method)) return null;
  const site = request.header('sec-fetch-site');
  const origin = request.header('origin');
  let foreign = site === 'cross-site' || site === 'same-site';
  if (origin !== null && !foreign) {
    try {
      foreign = new URL(origin).host !== addressedHost(request);
    } catch {
      foreign = true; // "null" or garbage: not this app's pages
    }
  }
  if (foreign) {
    return {
      status: 403,
      error: `Refused: ${method} ${path} was sent from another site (${origin ? `origin ${origin}` : `Sec-Fetch-Site: ${site}`}). Make changes from Concord's own pages.`,
    };
  }
  const type = (request.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (body !== 'upload' && type !== 'application/json') {
    return {
      status: 415,
      error: `${method} ${path} takes a JSON body with content-type: application/json, not ${type ? `"${type}"` : 'no content type'}.`,
    };
  }
  return null;
}

/** Percent-decoded text, as Next decodes cookie values and path parameters; text that does not decode is kept as sent. */
export function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
