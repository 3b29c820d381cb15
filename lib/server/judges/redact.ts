/*
 * An endpoint may quote the request back (an error that repeats the Authorization header, a "model" that echoes
 * its input), and what it says is stored and shown to every lead of the study: the raw answer, the failure reason,
 * the run's status. Every such text passes through `redactKey` before it is kept, so the key's value never is.
 */

export const KEY_REMOVED = '[key removed]';

/** `text` with every occurrence of the key's value replaced by KEY_REMOVED (unchanged when there is no key). */
export function redactKey(text: string, key: string | undefined | null): string {
  if (!key) return text;
  // Also the key as JSON quotes it, in case an endpoint echoes it inside a JSON string with escaped characters.
  const forms = new Set([key, JSON.stringify(key).slice(1, -1)]);
  let out = text;
  for (const form of forms) out = out.split(form).join(KEY_REMOVED);
  return out;
}
