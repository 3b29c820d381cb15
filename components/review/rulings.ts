/**
 * The rules of settling a disputed item on the adjudication screens, the same for every kind of study: which answers
 * the adjudicator has given, what still keeps the item open, and the words for it. The server checks the same rules
 * again (lib/server/review/adjudication.ts); these only let the screen say so before sending.
 */
import { nextWithout } from './rows';

/** A row the adjudicator must settle: the reviewers' answers, and the adjudicator's ruling and rationale so far. */
export type DisputedRow<V> = {
  id: string;
  name: string;
  reviewers: readonly (V | null)[];
  ruling: V | null;
  rationale: string | null;
};

/** What the adjudicator has chosen on the item's disputed rows, and which row has the focus. */
export type RulingState<V> = {
  answers: Readonly<Record<string, V>>;
  rationales: Readonly<Record<string, string>>;
  focus: number;
};

/** Something that keeps a disputed row from being settled. */
export type AdjudicationProblem = { index: number; id: string; kind: 'choice' | 'rationale'; message: string };

/** A final answer that none of the reviewers gave overrules them all, and needs a rationale. */
export const overrules = <V>(row: Pick<DisputedRow<V>, 'reviewers'>, value: V | null) => value !== null && !row.reviewers.includes(value);

/** The rulings already made on the item, with the focus on the first row still without one. */
export function initialRulings<V>(disputed: readonly DisputedRow<V>[]): RulingState<V> {
  const answers: Record<string, V> = {};
  const rationales: Record<string, string> = {};
  for (const row of disputed) {
    if (row.ruling !== null) answers[row.id] = row.ruling;
    if (row.rationale) rationales[row.id] = row.rationale;
  }
  return { answers, rationales, focus: nextWithout(disputed, answers, -1) ?? 0 };
}

/** Everything that keeps the item from being settled, in row order. */
export function rulingProblems<V>(disputed: readonly DisputedRow<V>[], s: RulingState<V>): AdjudicationProblem[] {
  const out: AdjudicationProblem[] = [];
  disputed.forEach((row, index) => {
    const answer = s.answers[row.id] ?? null;
    if (answer === null) out.push({ index, id: row.id, kind: 'choice', message: 'Choose a final label.' });
    else if (overrules(row, answer) && !s.rationales[row.id]?.trim())
      out.push({ index, id: row.id, kind: 'rationale', message: 'Explain why you overrule the reviewers.' });
  });
  return out;
}

/** The hint shown when Enter is pressed with problems left: how many, and what the first one needs. */
export function problemsHint<V>(disputed: readonly DisputedRow<V>[], problems: readonly AdjudicationProblem[]): string {
  const first = problems[0];
  return `${problems.length === 1 ? 'One thing is' : `${problems.length} things are`} still open. First: ${disputed[first.index].name} — ${first.kind === 'choice' ? 'choose a final label' : 'write a rationale (press r to open the field)'}.`;
}
