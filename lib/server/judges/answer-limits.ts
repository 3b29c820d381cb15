/*
 * How much of an endpoint's reply the runner takes (issue 21): a judge's answer is cut at MAX_ANSWER_CHARS before
 * it is read or stored, with a note saying so at its end, and a response body is read only up to
 * MAX_RESPONSE_BYTES: past that the stream is cancelled, so an endpoint that never stops writing cannot fill the
 * runner's memory. Both limits are in lib/server/judges/README.md and docs/cli.md.
 */

/** An answer longer than this many characters (UTF-16 code units) is cut here: reasoning and verdict fit well within. */
export const MAX_ANSWER_CHARS = 100_000;
/** A chat-completions body larger than this is not read further; the request fails (sending it again changes nothing). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

const CUT_NOTE = `\n\n[Concord: answer cut at ${MAX_ANSWER_CHARS} characters]`;

/** The answer as stored: cut at MAX_ANSWER_CHARS with the note that it was, or whole. */
export function capAnswer(text: string): string {
  return text.length > MAX_ANSWER_CHARS ? text.slice(0, MAX_ANSWER_CHARS) + CUT_NOTE : text;
}

/** The judge's own text of a stored answer (without the note a cut adds), which is what its verdict is read from. */
export function judgeText(stored: string): string {
  return stored.endsWith(CUT_NOTE) ? stored.slice(0, -CUT_NOTE.length) : stored;
}

/** The body of a response as text, or null when it is larger than `limit` bytes (the rest is then never read). */
export async function readBodyUpTo(res: Response, limit = MAX_RESPONSE_BYTES): Promise<string | null> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
