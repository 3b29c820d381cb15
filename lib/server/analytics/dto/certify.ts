/** Certifying a judge on a pairwise study: biases, the certification while labelling, judge-corrected leaderboards and rank agreement. */
import type { GroundTruthRuleChoice } from '@/lib/validation/studies';
import type { CalibrationPartDto } from './acceptance';
import type { IntervalDto, StatDto } from './common';
import type { ActiveDrawInfoDto } from './active';

export type FirstPreferenceDto = {
  /** Non-tie verdicts that preferred the reply shown first, out of `decisive`. */
  count: number;
  decisive: number;
  rate: StatDto;
  /** Exact two-sided binomial test against ½. */
  pValue: StatDto;
  /** Wilson 95 % interval of the rate. */
  interval: IntervalDto;
};

export type JudgePositionDto = {
  judge: string;
  criterion: string;
  /** Items with a verdict in at least one order, and in both. */
  items: number;
  itemsBothOrders: number;
  flips: number;
  reversals: number;
  /** Share of items judged in both orders whose verdict changed with the order (any change). */
  flipRate: StatDto;
  /** Share whose verdict went from win to lose or back. */
  reversalRate: StatDto;
  firstPreferred: FirstPreferenceDto;
};

export type HumanPositionDto = {
  criterion: string;
  /** A reviewer's username, or null for everyone pooled. */
  reviewer: string | null;
  /** Labels given with a stored display order. */
  verdicts: number;
  firstPreferred: FirstPreferenceDto;
};

export type LengthBinDto = {
  bin: number;
  lowerEdge: number;
  upperEdge: number;
  n: number;
  wins: number;
  ties: number;
  losses: number;
  /** Win share of reply a: wins / n, (wins + ½ ties) / n, wins / (wins + losses). */
  winShare: StatDto;
  winShareTiesHalf: StatDto;
  winShareExclTies: StatDto;
};

export type LengthBiasDto = {
  grader: string;
  criterion: string;
  /** Items with a label from this grader and both replies' text. */
  n: number;
  nDecisive: number;
  /** Change in the log-odds that reply a wins per unit of sign(d)·ln(1 + |d|), d = len(a) − len(b) in characters. */
  slope: StatDto;
  slopeSe: StatDto;
  /** Wald test of slope = 0. */
  pValue: StatDto;
  intervals: { slope: IntervalDto };
  /** Quintiles of d (bins 1–5), null when there is no item. */
  bins: LengthBinDto[] | null;
};

export type BiasReportDto = {
  studyId: number;
  judgePosition: JudgePositionDto[];
  humanPosition: HumanPositionDto[];
  /** Why `humanPosition` is empty: no label was given on Concord's review screen (imported labels store no order). */
  humanPositionReason?: 'no_display_order';
  length: LengthBiasDto[];
} & CalibrationPartDto;

export type CertifyPointDto = {
  /** Observations so far (1-based). */
  t: number;
  item: string;
  /** When the item's ground truth was settled (ISO time). */
  settledAt: string;
  /** 1 when the judge matched the ground truth on this item. */
  agree: 0 | 1;
  /** Running intersection of the confidence sequence after this item; null once it is empty. */
  lower: number | null;
  upper: number | null;
};

export type AltTestAnnotatorDto = {
  annotator: string;
  /** Items with ≥ 3 reviewers and a verdict that this annotator labelled. */
  items: number;
  tested: boolean;
  /** Share of items where the judge agrees with the other reviewers at least as well as this annotator does. */
  rhoJudge: StatDto;
  /** Share of items where this annotator agrees with the others at least as well as the judge does. */
  rhoHuman: StatDto;
  t: StatDto;
  pValue: StatDto;
  /** Benjamini–Yekutieli adjusted p-value across the tested annotators. */
  pAdjusted: StatDto;
  /** The judge beats this annotator (within ε) after the correction; null when not tested. */
  judgeWins: boolean | null;
};

export type AltTestCriterionDto = {
  criterion: string;
  name: string;
  /** Items of this criterion with at least 3 human labels. */
  itemsWithEnoughReviewers: number;
  /** Of those, the ones the judge gave a verdict on (the items the test uses). */
  itemsUsed: number;
  annotatorsTested: number;
  /** ω: share of tested annotators the judge beats. */
  winningRate: StatDto;
  /** ρ: mean over tested annotators of the share of items where the judge is at least as aligned as they are. */
  advantageProbability: StatDto;
  /** ω ≥ ½: the judge can replace an annotator. Null when no annotator could be tested. */
  judgeCanReplace: boolean | null;
  judgeCanReplaceReason?: string;
  annotators: AltTestAnnotatorDto[];
};

export type CertifyReportDto = {
  studyId: number;
  judge: string;
  criterion: string;
  groundTruthRule: GroundTruthRuleChoice;
  target: number;
  alpha: number;
  /** Ground-truth labels of the criterion with a verdict (the observations, in the order their ground truth was settled). */
  n: number;
  agree: number;
  /** Ground-truth labels the judge gave no verdict on (not observations). */
  unjudged: number;
  alignmentRate: StatDto;
  /** certified: the lower bound reached the target; refuted: the upper bound fell below it; else keep labelling. */
  decision: 'certified' | 'refuted' | 'keep_labelling' | null;
  decisionReason?: string;
  /** The anytime-valid 95 % bounds on the judge's alignment now. */
  bounds: IntervalDto;
  /**
   * The observed rate lies outside the bounds: the alignment was not constant along the settle order (earlier items
   * agreed more or less often than later ones), so the bounds describe a mean that moved. Read the path.
   */
  drift: boolean;
  /** Projected further items before a decision, at the current agreement rate (a planning aid, not a guarantee). */
  itemsNeeded: StatDto;
  /** Every k-th step of the path (k = `pathStep`), always with the last. */
  pathStep: number;
  path: CertifyPointDto[];
  altTest: { epsilon: number; q: number; minReviewers: number; minItemsPerAnnotator: number; criteria: AltTestCriterionDto[] };
  /**
   * What the decision rests on: the confidence sequence (labels in a uniform order), or, where the labels of the
   * criterion came from an active draw, the inverse-probability-weighted estimate in `active` (issue 28).
   */
  estimator?: 'confidence_sequence' | 'active_ipw';
  active?: ActiveCertificationDto;
};

/**
 * The judge's alignment over every item it judged, estimated from an active draw's labels weighted by 1/π, with
 * the judge's self-consistency (1 − its uncertainty) as the prediction: a 95 % normal interval at this moment,
 * not anytime-valid, so decide once the draw's labels are in (`pending` 0).
 */
export type ActiveCertificationDto = ActiveDrawInfoDto & {
  alignmentRate: StatDto;
  interval: IntervalDto;
  decision: 'certified' | 'refuted' | 'keep_labelling' | null;
};

/** One model and criterion of a judge-corrected leaderboard. */
export type CorrectedCellDto = {
  model: string;
  criterion: string;
  /** Items with ground truth and a verdict (n): they measure the judge's error. */
  labelled: number;
  /** Items with a verdict only (N). */
  unlabelled: number;
  /** Items with ground truth but no verdict: PPI needs the judge on every item it uses, so they are left out. */
  labelledUnjudged: number;
  /** Ground truth alone, on the n labelled items. */
  humanOnly: StatDto;
  /** The judge alone, on all n + N items (biased unless the judge is). */
  judgeOnly: StatDto;
  /** PPI++: the judge on all items, corrected by its mean error on the labelled ones. */
  corrected: StatDto;
  /** λ̂ of PPI++ (0: the judge adds nothing, 1: plain PPI). */
  lambda: StatDto;
  /** Human labels the human-only estimate would need for the corrected interval's width: n·se²(human)/se²(PPI++). */
  effectiveLabels: StatDto;
  intervals: { humanOnly: IntervalDto; judgeOnly: IntervalDto; corrected: IntervalDto };
  /**
   * Why the corrected interval deserves less trust than it claims: zero width (every labelled item and verdict alike),
   * or fewer than 30 labelled items (a normal interval then covers less often than 95 %). Null otherwise.
   */
  caution: 'zero_width_interval' | 'few_labelled_items' | 'labels_pending' | null;
  /**
   * `ppi++`, or `active_ipw` where the labels came from an active draw (issue 28): then `corrected` and its interval
   * are the inverse-probability-weighted estimate, `active` says how many labels it used, and `humanOnly`, `lambda`
   * and `effectiveLabels` are not given. Absent on a rubric study's cells, which use PPI++ only.
   */
  estimator?: 'ppi++' | 'active_ipw';
  active?: ActiveDrawInfoDto;
};

export type CorrectedRunDto = { judge: string; cells: CorrectedCellDto[] };

/** One grader's ranking of the models against the ground truth's, on one criterion or on Overall Acc. */
export type RankAgreementDto = {
  grader: string;
  /** A criterion id, or `overallAcc` for the KMP-Bench Overall Acc. */
  scope: string;
  /** Models scored by both the ground truth and the grader (a model either leaves undefined is left out). */
  models: number;
  tauB: StatDto;
  tauBPValue: StatDto;
  /** How the Kendall p-value was computed: exact permutation distribution, or normal with tie-corrected variance. */
  kendallMethod: 'exact' | 'asymptotic' | null;
  spearmanRho: StatDto;
  spearmanPValue: StatDto;
  /** Pairs of models both order the same way, oppositely, and tied by the ground truth, by the grader, by both. */
  concordant: number;
  discordant: number;
  tiedGroundTruth: number;
  tiedGrader: number;
  tiedBoth: number;
  /** Item-bootstrap 95 % intervals (every replicate redraws the items and ranks the models again); `not_computed` without replicates. */
  intervals: { tauB: IntervalDto; spearmanRho: IntervalDto };
};
