import 'server-only';
import http from 'node:http';
import type { Actor } from '@/lib/server/actor';
import { loadActor } from '@/lib/server/accounts/users';
import { signInAgain } from '@/lib/server/errors';
import { securityHeaders } from '@/lib/security-headers';
import { SIGN_IN_FIRST, hasSessionCookie } from './cookies';
import { JSON_CACHE_CONTROL, percentDecoded, refusal, toFailure, type RequestHead } from './request-rules';
import { parseCookieHeader, sessionFromCookies } from './session';

/**
 * Routes answered on Node's request itself, before Next sees it (decision 0051): the few a review screen sends item
 * after item, where Next's router, its Web Request/Response objects and the proxy cost more than the use-case. Each
 * applies what the proxy and `route()` apply, in the same order and from the same rules — no session cookie: 401;
 * a change from another site or not JSON: 403/415 (`request-rules.ts`); the session and the account re-read on every
 * request (`sessionFromCookies`, `loadActor`), so signing out or disabling an account counts at once — then calls
 * the same use-case as the Next route of the same path, and answers with the same JSON, status and headers.
 */
export type DirectRoute = {
  method: 'GET' | 'POST';
  /** The whole path; its groups are the route's parameters. */
  path: RegExp;
  run: (actor: Actor, params: string[], body: unknown) => unknown;
};

/** Bodies above this are refused before they are read in full; a draft or a submission is a few kilobytes. */
export const DIRECT_BODY_LIMIT = 1 << 20;

const HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  'cache-control': JSON_CACHE_CONTROL,
  ...Object.fromEntries(securityHeaders.map((h) => [h.key.toLowerCase(), h.value])),
};

function answer(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...HEADERS, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

class TooLarge extends Error {}
/** The client went away before its body had arrived: there is nobody to answer, and nothing was done. */
class ClientGone extends Error {}

/** The body as JSON, or null when it is not JSON (the use-case then says what is missing, as for Next's routes). */
function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DIRECT_BODY_LIMIT) {
        req.removeAllListeners('data');
        req.resume();
        reject(new TooLarge());
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(null);
      }
    });
    req.on('error', () => reject(new ClientGone()));
    req.on('close', () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

async function serve(route: DirectRoute, params: string[], head: RequestHead, req: http.IncomingMessage, res: http.ServerResponse) {
  const cookies = parseCookieHeader(req.headers.cookie);
  if (!hasSessionCookie((name) => cookies.some((c) => c.name === name))) return answer(res, 401, { ok: false, error: SIGN_IN_FIRST });
  const refused = refusal(head, 'json');
  if (refused) return answer(res, refused.status, { ok: false, error: refused.error });
  try {
    const session = await sessionFromCookies(cookies);
    const actor = session && loadActor(session.uid, session.sv);
    if (!actor) throw signInAgain();
    const body = route.method === 'POST' ? await readJson(req) : null;
    answer(res, 200, route.run(actor, params, body));
  } catch (e) {
    if (e instanceof ClientGone) return void res.destroy();
    if (e instanceof TooLarge) {
      return answer(res, 413, { ok: false, error: `${head.method} ${head.path} takes at most ${DIRECT_BODY_LIMIT / 1024} KiB of JSON.` });
    }
    const { status, body } = toFailure(e);
    answer(res, status, body);
  }
}

/**
 * Answers the request when one of `routes` matches its method and path, and says whether it did; otherwise the
 * request is left untouched for Next.
 */
export function directHandler(routes: readonly DirectRoute[]) {
  return (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    for (const route of routes) {
      if (route.method !== req.method) continue;
      const match = route.path.exec(path);
      if (!match) continue;
      const head: RequestHead = {
        method: req.method,
        path,
        header: (name) => {
          const v = req.headers[name];
          return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
        },
      };
      // Path parameters percent-decoded, as Next hands them to a route.
      void serve(route, match.slice(1).map(percentDecoded), head, req, res).catch((e: unknown) => {
        console.error(e);
        if (!res.headersSent) answer(res, 500, toFailure(e).body);
        else res.destroy();
      });
      return true;
    }
    return false;
  };
}

let installed = false;

/**
 * Puts `routes` in front of every HTTP server of this process (the one `next start` creates among them): a request
 * they match is answered here and never reaches Next. Runs once per process, from `instrumentation.ts`, before the
 * first request.
 */
export function installDirectRoutes(routes: readonly DirectRoute[]) {
  if (installed) return;
  installed = true;
  const handle = directHandler(routes);
  const emit = http.Server.prototype.emit as (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: unknown, event: string | symbol, ...args: unknown[]) {
    if (event === 'request' && handle(args[0] as http.IncomingMessage, args[1] as http.ServerResponse)) return true;
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}
