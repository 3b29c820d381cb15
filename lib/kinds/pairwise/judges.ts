/*
 * A pairwise study's part of running judges (the cores are in lib/server/judges): both replies go in the prompt, in
 * the order sent, an answer is first / second / tie and is stored from reply a's side; only the first sample is
 * kept, where every dashboard reads it.
 */
import * as q from '@/db/queries/judge-launches';
import { canonicalPairwise, PAIRWISE_ANSWERS, type PairwiseAnswer } from '@/lib/validation/judge-template';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import type { JudgesFacet } from '../facets/judges';
import { PAIRWISE_JUDGE_RULES } from './judge-rules';

export const pairwiseJudges: JudgesFacet = {
  // judgedOn absent: the criteria that apply to the item, from the study's catalog (see the facet).
  labelsOf: () => PAIRWISE_ANSWERS,
  prompt(item, swapped) {
    const it = item as PairwiseItem;
    return {
      problem: it.problem,
      instructions: it.instructions ?? '',
      history: it.history ?? [],
      responses: swapped ? [it.b.text, it.a.text] : [it.a.text, it.b.text],
    };
  },
  stored: (read, swapped) => Object.fromEntries(Object.entries(read).map(([c, v]) => [c, canonicalPairwise(v as PairwiseAnswer, swapped)])),
  storeVerdicts(db, _study, runId, r, verdicts) {
    if (r.sample !== 1) return;
    for (const [criterion, label] of Object.entries(verdicts)) q.insertPairwiseVerdict(db, runId, r.itemId, criterion, r.swapped, label);
  },
  rules: PAIRWISE_JUDGE_RULES,
  grading: 'criteria',
};
