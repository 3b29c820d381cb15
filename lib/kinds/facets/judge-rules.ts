/**
 * A kind's rules for judge runs, as data: pure, so the judge screens (browser) and the use-cases (server) read the
 * same rules — whether a request may be sent in both orders, which samples a run keeps, how runs may be combined.
 */
import type { CombineRule } from '@/lib/stats/combine';

export type CombineRules = {
  /** The rules the kind's labels allow (`all` and `any` need a desired label). */
  rules: readonly CombineRule[];
  /** Why the other rules are refused: the form's hint; absent when every rule applies. */
  ruleHint?: string;
  /** The use-case's message refusing another rule; absent when every rule applies. */
  refusedRule?: (rule: string) => string;
  /** The fewest runs a combination takes (1: the samples of one run combine). */
  minimumRuns: number;
  /** Why fewer runs are refused, said to the user. */
  tooFewRuns: string;
  /** What one verdict is, said on the form. */
  verdicts: string;
};

export type JudgeRules = {
  /** Whether a request may be sent in both orders (two replies that can swap places). */
  bothOrders: boolean;
  /** Which samples of a run become its verdicts, said on the launch form. */
  samples: string;
  combine: CombineRules;
  /**
   * The item placeholders an item of this kind fills (the criterion's and `{{labels}}` are filled for every kind):
   * a template using another one would send prompts with empty holes, so it is refused before any request.
   */
  itemPlaceholders: readonly string[];
  /** The shipped template a new run of this kind starts from (`SHIPPED_TEMPLATES`). */
  defaultTemplate: string;
};
