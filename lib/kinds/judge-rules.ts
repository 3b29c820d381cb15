/**
 * Each kind's rules for judge runs (pure: the judge screens read them, and the use-cases check requests against the
 * same). Kinds without judges have none.
 */
import type { StudyKind } from '@/lib/validation/labels';
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
