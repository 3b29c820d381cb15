import type { JudgeRules } from '../facets/judge-rules';

/**
 * A pairwise study's rules for judge runs (pure: the judge screens read them): two replies, so both orders; sample 1
 * only becomes verdicts; pairwise labels (lose < tie < win) have no desired label, so only a majority combines them.
 */
export const PAIRWISE_JUDGE_RULES: JudgeRules = {
  bothOrders: true,
  samples:
    "Samples: in a pairwise study only the verdicts of sample 1 become the run's verdicts, which the dashboards read; the answers of further samples are kept with the run (raw text and verdicts) but no dashboard reads them.",
  combine: {
    rules: ['majority'],
    ruleHint: 'Pairwise labels have no desired label, so runs combine by majority.',
    refusedRule: (rule) =>
      `The rule "${rule}" needs a desired label, and pairwise labels (lose < tie < win) have none: combine pairwise runs by majority.`,
    minimumRuns: 2,
    tooFewRuns: 'Choose at least two runs to combine: a pairwise run has one verdict per item and criterion.',
    verdicts: '',
  },
  itemPlaceholders: ['problem', 'instructions', 'history', 'response_1', 'response_2'],
  defaultTemplate: 'pairwise-criterion',
};
