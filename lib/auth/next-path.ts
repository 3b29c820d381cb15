/*
 * Where the sign-in page sends a person afterwards (`/sign-in?next=…`). Only a path of this site is followed: a
 * crafted link must not land people on another origin with their fresh session in hand. Checking the text's first
 * characters is not enough: browsers drop tabs and newlines inside a URL and read `\` as `/`, so `/\t/evil.example`
 * passes a "starts with one slash" test and is then followed as `//evil.example`, another host.
 */

// Any base will do: the question is only whether resolving `next` against it leaves its origin.
const BASE = 'http://concord.invalid';

// C0 controls (tab, CR, LF among them), DEL, and the backslash that browsers treat as a slash.
const REFUSED = /[\u0000-\u001f\u007f\\]/;

/** `value` as a path, query and fragment of this site, or `/` when it is anything else. */
export function safeNextPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || REFUSED.test(value)) return '/';
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.example` resolves to the path `//evil.example`, which a browser would follow to that host.
  return path.startsWith('//') ? '/' : path;
}
