/** Pairwise reports: agreement, judge alignment, the hybrid review plan and the leaderboard. */
import type { GroundTruthRuleChoice } from '@/lib/validation/studies';
import type { TiePolicy } from '@/lib/stats';
import type { CorrectedRunDto, RankAgreementDto } from './certify';
import type { CriterionStatKey, PairStatKey } from './agreement-tables';
import type { AcceptanceDto } from './acceptance';
import type { BootstrapInfoDto, IntervalDto, StatDto } from './common';

/** The macro-averaged agreement statistics of a report: those of a criterion. */
export type MacroKey = CriterionStatKey;

/*
 * The agreement statistics of a criterion and of a pair of reviewers are the keys of the report's column lists
 * (dto/agreement-tables.ts), so a statistic is named once: each is a StatDto with its interval in `intervals`.
 */
export type AgreementPairDto = {
  /** Usernames, in alphabetical order; the contingency table's rows are the first annotator. */
  annotators: [string, string];
  /** Items both annotators labelled on this criterion. */
  items: number;
  intervals: Record<PairStatKey, IntervalDto>;
} & Record<PairStatKey, StatDto>;

export type AgreementCriterionDto = {
  criterion: string;
  name: string;
  level: 'general' | 'principle' | 'overall';
  principle?: string;
  /** Items with at least two labels on this criterion (the units agreement is measured on). */
  items: number;
  /** Labels counted on this criterion, including those on items only one person labelled. */
  ratings: number;
  intervals: Record<CriterionStatKey, IntervalDto>;
  /** Cohen's κ of each pair of annotators sharing items on this criterion. */
  pairs: AgreementPairDto[];
} & Record<CriterionStatKey, StatDto>;

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
  groundTruthRule: GroundTruthRuleChoice;
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
  /** Error-bounded acceptance on the same data, beside this plan. */
  acceptance: AcceptanceDto;
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
