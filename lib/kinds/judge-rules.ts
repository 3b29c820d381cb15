/**
 * Each kind's rules for judge runs (pure: the judge screens read them, and the use-cases check requests against the
 * same). Kinds without judges have none.
 */
import type { StudyKind } from '@/lib/validation/labels';
import { PLACEHOLDERS } from '@/lib/validation/judge-template';
import type { CombineRules, JudgeRules } from './facets/judge-rules';
import { PAIRWISE_JUDGE_RULES } from './pairwise/judge-rules';
import { RUBRIC_JUDGE_RULES } from './rubric/judge-rules';

export type { CombineRules, JudgeRules } from './facets/judge-rules';

const RULES: Partial<Record<StudyKind, JudgeRules>> = { pairwise: PAIRWISE_JUDGE_RULES, rubric: RUBRIC_JUDGE_RULES };

export function judgeRulesOf(kind: StudyKind): JudgeRules | null {
  return RULES[kind] ?? null;
}

export function combineRulesOf(kind: StudyKind): CombineRules | null {
  return RULES[kind]?.combine ?? null;
}

/** What every kind fills: the criterion (or dimension) being judged and its labels. */
const CRITERION_PLACEHOLDERS: readonly string[] = PLACEHOLDERS.filter((p) => p.startsWith('criterion.') || p === 'labels');
const USED = /\{\{\s*([a-z0-9_.]+)\s*\}\}/gi;

/**
 * The placeholders of a template (its system and user texts) that an item of `kind` leaves empty, e.g. `response_1`
 * on a rubric study: such a template would send prompts with holes, so the launch form and the use-cases refuse it.
 * Reads the template leniently (any object); a malformed one is the template parser's to refuse.
 */
export function unfilledPlaceholders(kind: StudyKind, template: unknown): string[] {
  const rules = RULES[kind];
  if (!rules || typeof template !== 'object' || template === null) return [];
  const t = template as { system?: unknown; user?: unknown };
  const text = [t.system, t.user].filter((x): x is string => typeof x === 'string').join('\n');
  const filled = new Set([...rules.itemPlaceholders, ...CRITERION_PLACEHOLDERS]);
  const out = new Set<string>();
  for (const m of text.matchAll(USED)) if (!filled.has(m[1])) out.add(m[1]);
  return [...out];
}

/** Says which placeholders a kind's items do not fill, and which they do. */
export function unfilledMessage(kind: StudyKind, unfilled: readonly string[]): string {
  const rules = RULES[kind];
  const list = (xs: readonly string[]) => xs.map((x) => `{{${x}}}`).join(', ');
  return (
    `This template uses ${list(unfilled)}, which the items of a ${kind} study do not fill` +
    (rules ? ` (they fill ${list(rules.itemPlaceholders)}): start from the ${rules.defaultTemplate} template.` : '.')
  );
}
