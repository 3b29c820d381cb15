/** Rubric studies (lib/server/analytics/rubric-*.ts): their reports, certification and biases. */
import type { GroundTruthRuleChoice } from '@/lib/validation/studies';
import type { CalibrationPartDto } from './acceptance';
import type { CertifyReportDto, CorrectedCellDto, RankAgreementDto } from './certify';
import type { BootstrapInfoDto, IntervalDto, StatDto } from './common';
import type { AgreementCriterionDto, AgreementReportDto, HybridQueueDto, HybridReportDto } from './pairwise';

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
  groundTruthRule: GroundTruthRuleChoice;
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
  /** Every sample some judge run of the study has (a run without the sample shown is left out of it). */
  samples: number[];
  /** "Desired" means folding to the desired label by the dimension's lenient map. */
  lenient: boolean;
  dimensions: RubricDimensionDto[];
  leniency: LeniencyDto[];
  length: RubricLengthBiasDto[];
  /** Why `length` is empty: no item has a reply with text (whole-dialogue items). */
  lengthReason?: 'no_reply_text';
} & CalibrationPartDto;
