import type { JudgeRules } from '../facets/judge-rules';

/**
 * A rubric study's rules for judge runs (pure: the judge screens read them): one reply, so one order; every sample is
 * kept; each dimension has a desired label, so every combination rule applies.
 */
export const RUBRIC_JUDGE_RULES: JudgeRules = {
  bothOrders: false,
  samples: 'Samples: a rubric run keeps the verdicts of every sample; the dashboards read one sample at a time.',
  combine: {
    rules: ['majority', 'all', 'any'],
    minimumRuns: 1,
    tooFewRuns: 'Choose at least two runs, or a run with several samples.',
    verdicts: ' (every sample counts as one verdict, so one run’s samples combine too)',
  },
  itemPlaceholders: ['problem', 'history', 'reply'],
  defaultTemplate: 'mrbench-dimension',
};
