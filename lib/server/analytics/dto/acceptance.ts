/**
 * Error-bounded acceptance of a judge's labels beside Padó's plan (STATS-3 part F, issue 28), and the calibration
 * of a judge that gives several samples per item: the types the hybrid and bias reports carry.
 */
import type { StatDto } from './common';

/** One stratum (a label the judge predicts, or label × confidence bin): its calibration counts, its exact test and whether it is accepted. */
export type AcceptanceStratumDto = {
  /** The label, or `<label> · <confidence bin>`. */
  label: string;
  /** The label the judge predicted. */
  predicted: string;
  /** Calibration items (with ground truth) the judge gave this label. */
  n: number;
  /** Of those, where the ground truth differs. */
  errors: number;
  /** Every item the judge gave this label (the calibration items included). */
  pool: number;
  errorRate: StatDto;
  /** P(Bin(n, ε) ≤ errors): the p-value of "this stratum's error rate is ε or more". */
  pValue: number;
  /** Holm-adjusted p; null for a stratum without calibration items. */
  pAdjusted: StatDto;
  /** One-sided Clopper–Pearson upper bound at 1 − δ on this stratum alone. */
  errorUpper: StatDto;
  /** The same at 1 − δ/m: simultaneous over the m tested strata. */
  errorUpperSimultaneous: StatDto;
  accepted: boolean;
};

/** Padó's plan on the same data: the class it accepts, judged by what the calibration sample shows of it. */
export type PadoComparisonDto = {
  acceptedClass: string | null;
  /** Items the judge gave the accepted class (the calibration items included). */
  acceptedItems: number;
  /** acceptedItems / pool. */
  acceptedShare: StatDto;
  /** The accepted class's error rate on the calibration sample: what its labels are wrong in, observed. */
  observedError: StatDto;
  /** Clopper–Pearson upper bound at 1 − δ on that error: what the sample can vouch for. */
  errorUpper: StatDto;
  /** Whether the guarantee accepts the class too (every stratum of it). */
  guaranteed: boolean;
  /** 1 − human labels / pool when the rest of the accepted class keeps the judge's label. */
  effortSaved: StatDto;
};

export type AcceptanceDto = {
  epsilon: number;
  delta: number;
  /** Holm's step-down over the strata (same guarantee as Bonferroni, never fewer accepted). */
  method: 'holm';
  /** The strata: the predicted classes, or class × confidence bin when the run gave confidences. */
  stratifiedBy: 'class' | 'class_and_confidence';
  /** Items the judge labelled on this criterion. */
  pool: number;
  /** Of them, with ground truth: the calibration sample. */
  calibration: number;
  strata: AcceptanceStratumDto[];
  acceptedLabels: string[];
  /** Items in accepted strata (the calibration items included). */
  acceptedItems: number;
  /** acceptedItems / pool: the share of the judge's output accepted with the guarantee. */
  acceptedShare: StatDto;
  /** Items without ground truth whose judge label is kept. */
  judgeLabelledItems: number;
  /** Labels people give or gave: the calibration items and the rest of every stratum not accepted. */
  humanLabels: number;
  /** judgeLabelledItems / items without ground truth. */
  coverage: StatDto;
  /** 1 − humanLabels / pool: the people's work saved. */
  effortSaved: StatDto;
  /** ε: every accepted stratum's error rate is below it with probability ≥ 1 − δ (null: nothing accepted). */
  errorBound: StatDto;
  /** The largest simultaneous Clopper–Pearson bound among the accepted strata (≤ ε). */
  errorUpperAccepted: StatDto;
  /** ε · judgeLabelledItems / pool: bound on the share of wrong labels in the final data. */
  finalErrorRateBound: StatDto;
  pado: PadoComparisonDto;
};

/** One bin of a reliability diagram: its confidence range, its items, their mean confidence and accuracy. */
export type ReliabilityBinDto = {
  bin: number;
  lower: number;
  upper: number;
  n: number;
  meanConfidence: StatDto;
  accuracy: StatDto;
  /** accuracy − mean confidence: negative where the judge is over-confident. */
  gap: StatDto;
};

/** How well a judge's confidence matches how often it is right, on one criterion (STATS-3 part D). */
export type JudgeCalibrationDto = {
  judge: string;
  criterion: string;
  /**
   * Where the confidence comes from: `confidence`, the judge's own per verdict (its file's `confidence`); `samples`,
   * the share of the modal label among the run's samples of an item (both reply orders count as two samples).
   */
  source: 'confidence' | 'samples';
  /** Items with ground truth and a confidence, or at least two samples. */
  n: number;
  /** Fewest and most samples per item. */
  samplesMin: number;
  samplesMax: number;
  /** Equal-width bins. */
  bins: number;
  accuracy: StatDto;
  meanConfidence: StatDto;
  brierTopLabel: StatDto;
  brierMulticlass: StatDto;
  ece: StatDto;
  adaptiveEce: StatDto;
  reliability: ReliabilityBinDto[];
  adaptiveReliability: ReliabilityBinDto[];
};

/** The calibration part of a bias report: each judge run × criterion with confidences or several samples, and the runs without. */
export type CalibrationPartDto = {
  calibration: JudgeCalibrationDto[];
  /** Runs with one verdict per item and no confidence: no calibration can be measured. */
  uncalibrated: string[];
};
