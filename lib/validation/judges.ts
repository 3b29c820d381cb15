import { z } from 'zod';
// Before any schema is built: in the browser, zod must not try `new Function` (see common.ts).
import './common';
import { COMBINE_RULES, type CombineRule } from '@/lib/stats/combine';

/** A judge run's name: what `import judge` accepts (letters, digits, `. _ - : /` and spaces, up to 100). */
export const JUDGE_RUN_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/ -]{0,99}$/;

const runName = z
  .string({ error: 'Name the run.' })
  .trim()
  .min(1, { error: 'Name the run.' })
  .regex(JUDGE_RUN_NAME, { error: 'Use letters, digits, . _ - : / and spaces, up to 100, starting with a letter or digit.' });

/** The source runs: a list, or names separated by commas (as the CLI's `--runs a,b` gives them). */
const runList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',') : v),
  z
    .array(z.string().trim(), { error: 'List the runs to combine.' })
    .transform((names) => names.filter((s) => s.length > 0))
    .pipe(
      z
        .array(z.string())
        .min(1, { error: 'Choose the runs to combine.' })
        .refine((names) => new Set(names).size === names.length, { error: 'A run is listed twice.' }),
    ),
);

export const combineRunsSchema = z.object({
  runs: runList,
  rule: z.enum(COMBINE_RULES as [CombineRule, ...CombineRule[]], { error: 'The rule is all, any or majority.' }),
  name: runName,
  missing: z.enum(['unjudged', 'ignore'], { error: 'missing is unjudged or ignore.' }).default('unjudged'),
});
export type CombineRunsInput = z.input<typeof combineRunsSchema>;
