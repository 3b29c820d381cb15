/** The data lib/server/analytics hands to pages, components, lib/query, lib/io and the CLI: plain types, no server code. */
import type { CertificationReason, TiePolicy, UndefinedReason } from '@/lib/stats';
import type { JudgeRunRecipeDto } from '../judges/dto';

/** The macro-averaged agreement statistics of a report. */
export type MacroKey = 'percentAgreement' | 'fleissKappa' | 'krippendorffAlphaNominal' | 'krippendorffAlphaOrdinal';

export type AgreementPairDto = {
  /** Usernames, in alphabetical order; the contingency table's rows are the first annotator. */
  annotators: [string, string];
  /** Items both annotators labelled on this criterion. */
  items: number;
  percentAgreement: StatDto;
  cohenKappa: StatDto;
  cohenKappaLinear: StatDto;
  cohenKappaQuadratic: StatDto;
  intervals: { percentAgreement: IntervalDto; cohenKappa: IntervalDto; cohenKappaLinear: IntervalDto; cohenKappaQuadratic: IntervalDto };
};

export type AgreementCriterionDto = {
  criterion: string;
  name: string;
  level: 'general' | 'principle' | 'overall';
  principle?: string;
  /** Items with at least two labels on this criterion (the units agreement is measured on). */
  items: number;
  /** Labels counted on this criterion, including those on items only one person labelled. */
  ratings: number;
  /** Mean over items of the share of agreeing pairs of labels (Fleiss' P̄; with two raters, the share of items). */
  percentAgreement: StatDto;
  /** Only where every labelled item has the same number of labels (else `unequal_ratings`). */
  fleissKappa: StatDto;
  krippendorffAlphaNominal: StatDto;
  krippendorffAlphaOrdinal: StatDto;
  intervals: {
    percentAgreement: IntervalDto;
    fleissKappa: IntervalDto;
    krippendorffAlphaNominal: IntervalDto;
    krippendorffAlphaOrdinal: IntervalDto;
  };
  /** Cohen's κ of each pair of annotators sharing items on this criterion. */
  pairs: AgreementPairDto[];
};

export type AgreementReportDto = {
  studyId: number;
  labelSet: readonly ['lose', 'tie', 'win'];
  bootstrap: BootstrapInfoDto;
  criteria: AgreementCriterionDto[];
  /** Unweighted means over the criteria where the statistic is defined; `criteriaIncluded` says over how many. */
  macro: Record<MacroKey, StatDto> & { criteriaIncluded: Record<MacroKey, number>; intervals: Record<MacroKey, IntervalDto> };
};

/** Judge against ground truth on one set of (item, criterion) labels. */
export type AlignmentSummaryDto = {
  /** Ground-truth labels with a judge verdict. */
  n: number;
  /** Of those, labels where the judge equals ground truth. */
  agree: number;
  alignmentRate: StatDto;
  /** Labels where neither ground truth nor the judge says tie. */
  nNoTies: number;
  alignmentRateNoTies: StatDto;
  cohenKappa: StatDto;
  cohenKappaLinear: StatDto;
  cohenKappaQuadratic: StatDto;
  /** 3×3 counts, rows = ground truth, columns = judge, both in the order lose, tie, win. */
  confusion: number[][];
  intervals: {
    alignmentRate: IntervalDto;
    alignmentRateNoTies: IntervalDto;
    cohenKappa: IntervalDto;
    cohenKappaLinear: IntervalDto;
    cohenKappaQuadratic: IntervalDto;
  };
};

export type AlignmentCriterionDto = AlignmentSummaryDto & {
  criterion: string;
  name: string;
  level: 'general' | 'principle' | 'overall';
  principle?: string;
  unjudged: number;
};

/** MT-Bench-style agreement counted per vote: each pair of votes on the same item and criterion is one comparison. */
export type VoteAgreementDto = {
  n: number;
  agreement: StatDto;
  nNoTies: number;
  agreementNoTies: StatDto;
  intervals: { agreement: IntervalDto; agreementNoTies: IntervalDto };
};

export type PositionConsistencyDto =
  { n: number; consistent: number; rate: StatDto; interval: IntervalDto } | { value: null; reason: 'no_both_orders' };

export type AlignmentReportDto = {
  studyId: number;
  judge: string;
  groundTruthRule: 'adjudicated' | 'majority';
  labelSet: readonly ['lose', 'tie', 'win'];
  bootstrap: BootstrapInfoDto;
  /** Ground-truth labels available, and items left out because they are not settled yet. */
  groundTruth: { labels: number; incompleteItems: number };
  /** Records of the run whose verdict could not be read at import (left out, never guessed). */
  unparsedVerdicts: number;
  overall: AlignmentSummaryDto;
  byCriterion: AlignmentCriterionDto[];
  /** Principle criteria pooled by their principle. */
  byPrinciple: (AlignmentSummaryDto & { principle: string; criteria: string[] })[];
  /** By the model that wrote reply a (`items.source_a`). */
  byModel: (AlignmentSummaryDto & { model: string })[];
  /** The judge against each annotator's own labels (before adjudication), on the items and criteria it judged. */
  judgeVsAnnotators: (VoteAgreementDto & { annotator: string })[];
  /** The judge against every human vote, and every pair of human votes, on the same items and criteria. */
  judgeVsHuman: VoteAgreementDto;
  humanVsHuman: VoteAgreementDto;
  positionConsistency: PositionConsistencyDto;
  /** Ground-truth labels the judge gave no verdict on. */
  unjudged: number;
};

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
};

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
  groundTruthRule: 'adjudicated' | 'majority';
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

/** Why a reported value is missing: the statistics' own reasons plus the ones only a report can know. */
export type Reason =
  | UndefinedReason
  /** Fleiss' κ is reported only when every item of the criterion has the same number of ratings. */
  | 'unequal_ratings'
  /** Position consistency needs a verdict in both orders for the same item and criterion. */
  | 'no_both_orders'
  /** The bootstrap was switched off (0 replicates). */
  | 'not_computed'
  /** The value has no meaning here (e.g. the alignment of the ground truth with itself). */
  | 'not_applicable'
  /** Judge certification and bias statistics (lib/stats, STATS-2). */
  | CertificationReason
  /** The tie policy `exclude` makes a win rate a ratio W/(W + L), not a mean per item: PPI cannot correct it. */
  | 'not_a_mean'
  /** No label was given on Concord's review screen, so no display order is stored (imported labels have none). */
  | 'no_display_order'
  /** Rubric dimensions pooled together have different label sets: only the share of matches is defined. */
  | 'mixed_label_sets';

/** A reported value: a number, or `null` with the reason (the lib/stats `Stat` shape without extras). */
export type StatDto = { value: number; reason?: undefined } | { value: null; reason: Reason };

/** A 95 % interval and how it was made; bootstrap intervals say how many replicates were undefined. */
export type IntervalDto = {
  /** `normal`: estimate ± z·se (PPI); `wald`: the same for a logistic slope; `confidence_sequence`: anytime-valid. */
  method: 'wilson' | 'bootstrap' | 'normal' | 'wald' | 'confidence_sequence';
  lower: number | null;
  upper: number | null;
  reason?: Reason;
  undefinedReplicates?: number;
};

export type BootstrapInfoDto = { replicates: number; seed: number; level: 0.95; quantile: 'linear' };

export type HybridQueueDto = {
  judge: string;
  criterion: string;
  /** Items the judge put in a class the plan sends to people. */
  routed: number;
  /** Random items of the accepted class added to reach the target accuracy. */
  extra: number;
  assignments: { username: string; items: number }[];
};

export type HybridClassDto = {
  /** A label the judge predicted. */
  label: string;
  /** How often the judge predicted it on the calibration sample. */
  predicted: number;
  /** Of those, how often ground truth agrees. */
  correct: number;
  /** correct / predicted. */
  classwiseAccuracy: StatDto;
  /** accept: keep the judge's labels of this class; review: send every one of them to people. */
  decision: 'accept' | 'review';
  interval: IntervalDto;
};

export type HybridReportDto = {
  studyId: number;
  judge: string;
  criterion: string;
  target: number;
  /** Calibration sample: items with both ground truth and a verdict of this judge on the criterion. */
  n: number;
  /** Accuracy of the judge alone on the sample. */
  accJudge: StatDto;
  /** Predicted classes (labels the judge never predicted are in `unpredictedLabels`). */
  classes: HybridClassDto[];
  unpredictedLabels: string[];
  acceptedClass: string | null;
  reviewedClasses: string[];
  /** Items sent to people: every prediction of a reviewed class. */
  reviewed: number;
  /** (correct of the accepted class + reviewed) / n, taking a review to return the ground-truth label. */
  accHybrid: StatDto;
  /** 1 − reviewed / n. */
  effortSaved: StatDto;
  /** Errors of the accepted class still to be found to reach the target. */
  errorsToFix: number;
  /** Extra random reviews of the accepted class expected to find them. */
  extraReviewsExpected: number;
  accExpectedAfter: StatDto;
  effortSavedExpectedAfter: StatDto;
  /** Extra reviews if the errors are found last. */
  extraReviewsWorstCase: number;
  effortSavedWorstCase: StatDto;
  /** Ground-truth labels of the criterion without a verdict, left out of the sample. */
  unjudged: number;
  intervals: { accJudge: IntervalDto; accHybrid: IntervalDto; effortSaved: IntervalDto };
};

export type LeaderboardRowDto = {
  /** The model that wrote reply a (`items.source_a`), scored against reply b. */
  model: string;
  grader: string;
  /** Items of this model the grader labelled on at least one criterion. */
  items: number;
  /** Win rate of the `overall` verdict. */
  overallJudgement: StatDto;
  /** Mean win rate of the general criteria. */
  generalLevelAcc: StatDto;
  /** Mean win rate of each principle's criteria. */
  principleLevelAcc: Record<string, StatDto>;
  /** ½ (General-Level Acc + mean of the Principle-Level Accs). */
  overallAcc: StatDto;
  /** Win rate of every criterion, `overall` included. */
  perCriterion: Record<string, StatDto>;
  /** Win, tie and loss counts of reply a per criterion. */
  counts: Record<string, { win: number; tie: number; loss: number }>;
  /** For a judge run: share of this model's ground-truth labels the judge matched; `not_applicable` for the ground truth. */
  alignmentRate: StatDto;
  intervals: {
    overallJudgement: IntervalDto;
    generalLevelAcc: IntervalDto;
    principleLevelAcc: Record<string, IntervalDto>;
    overallAcc: IntervalDto;
    perCriterion: Record<string, IntervalDto>;
    alignmentRate: IntervalDto;
  };
};

export type LeaderboardReportDto = {
  studyId: number;
  /** `half`: a tie is half a win; `non_win`: a tie is not a win; `exclude`: ties leave the denominator. */
  tiePolicy: TiePolicy;
  /** Seed and replicates of the item bootstrap; each row draws from its own stream (its seed is derived from this one, its model and grader). */
  bootstrap: BootstrapInfoDto;
  models: string[];
  graders: string[];
  rows: LeaderboardRowDto[];
  /** Per judge run: the judge's win rates corrected by the ground truth (PPI++), beside human-only and judge-only. */
  corrected: CorrectedRunDto[];
  /** Per judge run: Kendall τ-b and Spearman ρ between its ranking of the models and the ground truth's. */
  rankAgreement: RankAgreementDto[];
};

export type JudgeRunDto = {
  name: string;
  /** Verdicts stored for the run (one per item, criterion and order). */
  labels: number;
  /** Records whose verdict could not be read at import (left out, never guessed). */
  unparsed: number;
  createdAt: string;
  /** How the run was made from other runs (`judge combine`); null for an imported run. */
  recipe: JudgeRunRecipeDto | null;
};

/* ----- rubric studies (lib/server/analytics/rubric-*.ts) ----- */

/** A rubric dimension as the reports name it: labels worst first, the desired one, and its lenient folding if any. */
export type RubricDimensionDto = { id: string; name: string; labels: string[]; desired: string; lenient?: Record<string, string> };

/** Agreement of a rubric study: the pairwise report's `criteria[]` and `macro`, one criterion per dimension. */
export type RubricAgreementReportDto = {
  studyId: number;
  kind: 'rubric';
  bootstrap: BootstrapInfoDto;
  dimensions: RubricDimensionDto[];
  /** One per dimension (`criterion` = the dimension's id, `level` = general), with the dimension's labels. */
  criteria: (AgreementCriterionDto & { labels: string[] })[];
  macro: AgreementReportDto['macro'];
};

/** One label of a grader against ground truth: Padó's class-wise accuracy (precision of the prediction) and recall. */
export type RubricClasswiseDto = {
  label: string;
  /** How often the grader gave the label. */
  predicted: number;
  /** Of those, how often ground truth holds the same label. */
  correct: number;
  /** correct / predicted (class-wise accuracy). */
  accuracy: StatDto;
  /** How often ground truth holds the label. */
  support: number;
  /** correct / support. */
  recall: StatDto;
  intervals: { accuracy: IntervalDto; recall: IntervalDto };
};

/** A judge against ground truth on a set of (item, dimension) labels. */
export type RubricSummaryDto = {
  n: number;
  agree: number;
  alignmentRate: StatDto;
  macroF1: StatDto;
  cohenKappa: StatDto;
  /** The label order of `confusion` and `classwise`; null when dimensions with different label sets are pooled. */
  labels: string[] | null;
  /** Rows = ground truth, columns = judge, in `labels` order; null with `labels`. */
  confusion: number[][] | null;
  classwise: RubricClasswiseDto[];
  intervals: { alignmentRate: IntervalDto; cohenKappa: IntervalDto };
};

/** Strict summary, with the lenient one (labels folded by the dimension's map) where the dimensions have a map. */
export type RubricAlignmentSummaryDto = RubricSummaryDto & { lenient?: RubricSummaryDto };

export type RubricAlignmentReportDto = {
  studyId: number;
  kind: 'rubric';
  judge: string;
  /** The judge run's sample read (each sample is a verdict set of its own), and the samples the run has. */
  sample: number;
  samples: number[];
  groundTruthRule: 'adjudicated' | 'majority';
  bootstrap: BootstrapInfoDto;
  dimensions: RubricDimensionDto[];
  groundTruth: { labels: number; incompleteItems: number };
  unparsedVerdicts: number;
  /** Every dimension pooled. */
  overall: RubricAlignmentSummaryDto;
  byCriterion: (RubricAlignmentSummaryDto & { criterion: string; name: string; unjudged: number })[];
  /** By tutor (the reply's `source`), every dimension pooled, and per dimension (Padó Table 3). */
  byModel: (RubricAlignmentSummaryDto & {
    model: string;
    byCriterion: (RubricAlignmentSummaryDto & { criterion: string; name: string })[];
  })[];
  unjudged: number;
};

/** Per tutor and grader: the share of each dimension's desired label (MRBench's results tables). */
export type RubricLeaderboardRowDto = {
  model: string;
  grader: string;
  /** Replies of this tutor the grader labelled on at least one dimension. */
  items: number;
  /** Share of the desired label per dimension (strict). */
  perCriterion: Record<string, StatDto>;
  /** Share of the desired label after lenient folding, for the dimensions with a map. */
  lenient: Record<string, StatDto>;
  /** Labels and desired labels counted per dimension (strict, and lenient where there is a map). */
  counts: Record<string, { n: number; desired: number; desiredLenient?: number }>;
  /** For a judge run: share of this tutor's ground-truth labels the judge matched; `not_applicable` for the ground truth. */
  alignmentRate: StatDto;
  intervals: { perCriterion: Record<string, IntervalDto>; lenient: Record<string, IntervalDto>; alignmentRate: IntervalDto };
};

export type RubricCorrectedCellDto = CorrectedCellDto & { lenient: boolean };

export type RubricLeaderboardReportDto = {
  studyId: number;
  kind: 'rubric';
  /** The judge sample read from every run. */
  sample: number;
  dimensions: RubricDimensionDto[];
  models: string[];
  graders: string[];
  rows: RubricLeaderboardRowDto[];
  /** Per judge run: the desired shares per tutor and dimension corrected by the ground truth (PPI++). */
  corrected: { judge: string; cells: RubricCorrectedCellDto[] }[];
  /** Per judge run: Kendall τ-b and Spearman ρ between its ranking of the tutors and the ground truth's, per dimension. */
  rankAgreement: RankAgreementDto[];
};

/** Padó's plan on one set of labels (a dimension, a tutor): the fields of the pairwise hybrid report's plan. */
export type HybridPlanDto = Omit<HybridReportDto, 'studyId' | 'judge' | 'criterion' | 'target'>;

export type RubricHybridReportDto = HybridPlanDto & {
  studyId: number;
  kind: 'rubric';
  judge: string;
  sample: number;
  /** The dimension the plan is for (the top-level fields: every tutor together). */
  criterion: string;
  /** Whether labels are folded by the dimension's lenient map first (Padó's setting). */
  lenient: boolean;
  target: number;
  /** The label set the plan works on (folded when lenient). */
  labels: string[];
  /** The same plan per tutor (Padó Table 4): each tutor's own accepted class. */
  byModel: (HybridPlanDto & { model: string })[];
  /** Every dimension, every tutor together, with the same target and folding where the dimension has a map. */
  byCriterion: (HybridPlanDto & { criterion: string; name: string; lenient: boolean })[];
};

export type RubricHybridQueueDto = HybridQueueDto & { lenient: boolean; perTutor: boolean };

/** Certification of a judge run on one dimension of a rubric study: `criterion` is the dimension's id. */
export type RubricCertifyReportDto = CertifyReportDto & {
  kind: 'rubric';
  sample: number;
  /** Alignment, and the alternative annotator test, on labels folded by each dimension's lenient map. */
  lenient: boolean;
};

/** A sign test on paired labels: of the items where two graders differ, the share that went one way. */
export type DiscordanceDto = {
  /** Discordant items that went the tested way, out of `discordant`. */
  count: number;
  discordant: number;
  rate: StatDto;
  /** Exact two-sided binomial test against ½ (McNemar's exact test). */
  pValue: StatDto;
  /** Wilson 95 % interval of the rate. */
  interval: IntervalDto;
};

/** Does a judge give a dimension's desired label more often than the ground truth does, on the same replies? */
export type LeniencyDto = {
  judge: string;
  criterion: string;
  /** Replies with a ground-truth label and a verdict. */
  n: number;
  judgeDesired: number;
  groundTruthDesired: number;
  judgeShare: StatDto;
  groundTruthShare: StatDto;
  /** judgeShare − groundTruthShare. */
  difference: StatDto;
  /** Replies where only the judge gave the desired label, and where only the ground truth has it. */
  judgeOnly: number;
  groundTruthOnly: number;
  /** Of the discordant replies, the share where the judge was the one giving the desired label. */
  judgeMoreLenient: DiscordanceDto;
};

export type RubricLengthBinDto = { bin: number; lowerEdge: number; upperEdge: number; n: number; desired: number; share: StatDto };

export type RubricLengthBiasDto = {
  grader: string;
  criterion: string;
  /** Replies with a label from this grader and text. */
  n: number;
  desired: number;
  /** Change in the log-odds of the desired label per unit of ln(1 + length), length in characters. */
  slope: StatDto;
  slopeSe: StatDto;
  /** Wald test of slope = 0. */
  pValue: StatDto;
  intervals: { slope: IntervalDto };
  /** Quintiles of the reply length (bins 1–5), null when there is no reply. */
  bins: RubricLengthBinDto[] | null;
};

export type RubricBiasReportDto = {
  studyId: number;
  kind: 'rubric';
  sample: number;
  /** "Desired" means folding to the desired label by the dimension's lenient map. */
  lenient: boolean;
  dimensions: RubricDimensionDto[];
  leniency: LeniencyDto[];
  length: RubricLengthBiasDto[];
  /** Why `length` is empty: no item has a reply with text (whole-dialogue items). */
  lengthReason?: 'no_reply_text';
};
