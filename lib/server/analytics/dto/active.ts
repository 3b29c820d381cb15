/** Active labelling (issue 28): the queue a draw opened, and what the estimators say about the draw they used. */

export type UncertaintySourceDto = 'orders' | 'samples' | 'second_judge' | 'confidence';

export type ActiveQueueDto = {
  judge: string;
  criterion: string;
  source: UncertaintySourceDto;
  secondJudge: string | null;
  budget: number;
  tau: number;
  seed: number;
  /** Items the draw was made from: judged, not yet sent to people. */
  pool: number;
  /** Σπ over the pool: below budget × pool where probabilities clip at 1. */
  expectedLabels: number;
  /** Items drawn and sent to people. */
  drawn: number;
  assignments: { username: string; items: number }[];
};

/** Where a draw's uncertainty came from, in words: the queue form and `concord queue open` say the same. */
export function uncertaintySourceText(d: Pick<ActiveQueueDto, 'source' | 'secondJudge'>): string {
  if (d.source === 'orders') return 'the disagreement of the two orders';
  if (d.source === 'samples') return 'the spread of the samples';
  if (d.source === 'confidence') return 'the judge’s own confidence';
  return `the disagreement with ${d.secondJudge}`;
}

/**
 * Which estimator a corrected value or a certification used: PPI++ (labelled items a uniform sample) or the
 * inverse-probability-weighted active estimator over the latest stored draw of the run and criterion.
 */
export type EstimatorDto = 'ppi++' | 'active_ipw' | 'confidence_sequence';

export type ActiveDrawInfoDto = {
  /** Items of the draw's pool. */
  pool: number;
  drawn: number;
  /** Drawn items whose ground truth is settled: the labels the estimate weights by 1/π. */
  drawnLabelled: number;
  /** Drawn items still without ground truth; the estimate is exact only when this is 0. */
  pending: number;
  /** Items outside the pool with ground truth (labelled before the draw): counted with π = 1. */
  labelledBefore: number;
  budget: number;
  tau: number;
  source: UncertaintySourceDto;
};
