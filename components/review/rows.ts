/**
 * The row focus of the review screens that go through an item row by row (criteria, dimensions, disagreements).
 */

/**
 * The index of the first row without an answer after `from`, wrapping round to the start; null when every row has
 * one. `from` is -1 to start at the top.
 */
export function nextWithout<C extends { id: string }>(
  rows: readonly C[],
  chosen: Readonly<Record<string, unknown>>,
  from: number,
): number | null {
  const n = rows.length;
  for (let step = 1; step <= n; step++) {
    const i = (from + step) % n;
    if (!chosen[rows[i].id]) return i;
  }
  return null;
}

/** Where j / ↓ and k / ↑ move the focus among `count` rows (stopping at either end); null for any other key. */
export function rowMove(key: string, focus: number, count: number): number | null {
  switch (key) {
    case 'j':
    case 'ArrowDown':
      return Math.min(focus + 1, count - 1);
    case 'k':
    case 'ArrowUp':
      return Math.max(focus - 1, 0);
    default:
      return null;
  }
}

/**
 * What settling an item sends: the final answer of every disputed row (only those: the server refuses answers for
 * rows the reviewers agree on), and the rationales written for them, trimmed, empty ones left out.
 */
export function rulingsOf<V>(
  disputed: readonly { id: string }[],
  answers: Readonly<Record<string, V>>,
  rationales: Readonly<Record<string, string>>,
): { answers: Record<string, V>; rationales: Record<string, string> } {
  const out: { answers: Record<string, V>; rationales: Record<string, string> } = { answers: {}, rationales: {} };
  for (const { id } of disputed) {
    out.answers[id] = answers[id];
    const text = rationales[id]?.trim();
    if (text) out.rationales[id] = text;
  }
  return out;
}
