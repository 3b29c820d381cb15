import 'server-only';
import { decode } from 'next-auth/jwt';
import { authSecret } from '@/lib/env';
import { SESSION_COOKIES } from './cookies';
import { percentDecoded } from './request-rules';

export type SessionClaims = { uid: number; sv: number };

type Decoded = SessionClaims & { exp: number };

/**
 * Decoded session tokens by their exact text. A token is encrypted and authenticated, so the same text always
 * decodes to the same claims; only its expiry has to be checked again. Bounded: oldest entries go first.
 */
const decodedTokens = new Map<string, Decoded>();
const MAX_CACHED = 10_000;

/** A cookie as a request carries it. */
export type Cookie = { name: string; value: string };

/** Reassembles a cookie Auth.js had to split into `name.0`, `name.1`, … (tokens above ~4 kB). */
function tokenFrom(cookies: readonly Cookie[], name: string): string | undefined {
  const whole = cookies.find((c) => c.name === name)?.value;
  if (whole) return whole;
  const chunks = cookies
    .filter((c) => c.name.startsWith(`${name}.`) && /^\d+$/.test(c.name.slice(name.length + 1)))
    .sort((a, b) => Number(a.name.slice(name.length + 1)) - Number(b.name.slice(name.length + 1)));
  return chunks.length ? chunks.map((c) => c.value).join('') : undefined;
}

/** The claims of one session token (`salt` = its cookie name), or null when it is invalid or expired. */
export async function decodeSessionToken(token: string, salt: string): Promise<Decoded | null> {
  const now = Math.floor(Date.now() / 1000);
  const key = `${salt}\n${token}`;
  const hit = decodedTokens.get(key);
  if (hit) {
    if (hit.exp > now) return hit;
    decodedTokens.delete(key);
    return null;
  }
  let payload: Record<string, unknown> | null;
  try {
    payload = (await decode({ token, secret: authSecret(), salt })) as Record<string, unknown> | null;
  } catch {
    return null; // tampered, made with another secret, or expired
  }
  const uid = Number(payload?.uid);
  const sv = Number(payload?.sv);
  const exp = Number(payload?.exp);
  if (!Number.isInteger(uid) || uid < 1 || !Number.isInteger(sv) || !Number.isFinite(exp) || exp <= now) return null;
  const decoded = { uid, sv, exp };
  if (decodedTokens.size >= MAX_CACHED) decodedTokens.delete(decodedTokens.keys().next().value!);
  decodedTokens.set(key, decoded);
  return decoded;
}

/**
 * The claims of the session cookie among a request's cookies, or null. This reads the cookie Auth.js issued at
 * sign-in directly instead of running Auth.js's whole session endpoint on every call (which also re-encrypts a fresh
 * token that a server component or route cannot set anyway); the caller still re-reads the account from the
 * database. Free of Next, so that the direct routes (`direct-routes.ts`), which answer before Next sees the request,
 * read the session exactly as the guards do.
 */
export async function sessionFromCookies(cookies: readonly Cookie[]): Promise<SessionClaims | null> {
  for (const name of SESSION_COOKIES) {
    const token = tokenFrom(cookies, name);
    if (!token) continue;
    const decoded = await decodeSessionToken(token, name);
    return decoded && { uid: decoded.uid, sv: decoded.sv };
  }
  return null;
}

/**
 * The cookies of a `Cookie` request header (RFC 6265 §5.4: `name=value` pairs joined by `; `), values
 * percent-decoded as Next's own cookie reader decodes them (a value that does not decode is kept as sent).
 */
export function parseCookieHeader(header: string | undefined): Cookie[] {
  if (!header) return [];
  const cookies: Cookie[] = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name) cookies.push({ name, value: percentDecoded(pair.slice(eq + 1).trim()) });
  }
  return cookies;
}
