/**
 * Deciding whether a piece of text "gives" a numeric answer, e.g. whether the
 * student's step "Divides 180 by 15 and gets 12 days." states the answer "12".
 *
 * Matching is literal on normalised number tokens, never arithmetic: "1,200",
 * "$1200" and "1200.00" all match "1200", "5/8" matches "5/8", but "120" does
 * not match "12" and "10/16" does not match "5/8".
 */

// A number, optionally with a currency sign, thousands separators, decimals or a
// fraction bar. The look-behind keeps "180-15" from producing "-15".
const NUMBER_TOKEN = /(?<![\w.])-?\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?:\/\d+)?|(?<![\w.])-?\$?\d+(?:\.\d+)?(?:\/\d+)?/g;

/**
 * Canonical text of one number token: no `$`, no thousands commas, no
 * insignificant trailing zeros after the decimal point ("12.50" → "12.5",
 * "12.0" → "12"), no leading "+".
 */
export function normalizeNumberToken(token: string): string {
  let t = token.trim().replace(/^\+/, '').replace(/\$/g, '').replace(/,/g, '');
  const neg = t.startsWith('-');
  if (neg) t = t.slice(1);
  t = t
    .split('/')
    .map((part) => (part.includes('.') ? part.replace(/0+$/, '').replace(/\.$/, '') : part))
    .map((part) => part.replace(/^0+(?=\d)/, ''))
    .join('/');
  return neg && t !== '0' ? `-${t}` : t;
}

/** Every number token in `text`, normalised. */
export function numberTokens(text: string): string[] {
  return Array.from(text.matchAll(NUMBER_TOKEN), (m) => normalizeNumberToken(m[0]));
}

/**
 * The answer's canonical number token, or null when the answer is not a single
 * number (then callers fall back to whole-word text matching).
 * Accepts "12", "$1,200", "5/8", "\\boxed{12}", "12 days".
 */
export function answerNumber(answer: string): string | null {
  const unboxed = answer.replace(/\\boxed\{([^{}]*)\}/g, '$1');
  const tokens = numberTokens(unboxed);
  return tokens.length === 1 ? tokens[0] : null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `text` states `answer` (see the module comment for what counts). */
export function textGivesAnswer(text: string, answer: string): boolean {
  const wanted = answerNumber(answer);
  if (wanted !== null) return numberTokens(text).includes(wanted);
  const words = answer.trim();
  if (!words) return false;
  return new RegExp(`(?<![\\w])${escapeRegExp(words)}(?![\\w])`, 'i').test(text);
}
