import type { AcceptanceDto, IntervalDto, RubricAgreementReportDto, RubricHybridReportDto, StatDto } from '@/lib/server/analytics/dto';

/* Reports written by hand, for the tests of what reads them (the CSV writer, the CLI's text). */

const v = (value: number): StatDto => ({ value });
const off: IntervalDto = { method: 'bootstrap', lower: null, upper: null, reason: 'not_computed' };
const wil = (lower: number, upper: number): IntervalDto => ({ method: 'wilson', lower, upper });
const BOOT = { replicates: 0, seed: 7, level: 0.95, quantile: 'linear' } as const;

/** A rubric study's agreement report: one dimension, two reviewers, the bootstrap off. */
export const rubricAgreement: RubricAgreementReportDto = {
  studyId: 9,
  kind: 'rubric',
  bootstrap: BOOT,
  dimensions: [{ id: 'mi', name: 'Notices the mistake', labels: ['No', 'To some extent', 'Yes'], desired: 'Yes' }],
  criteria: [
    {
      criterion: 'mi',
      name: 'Notices the mistake',
      level: 'general',
      labels: ['No', 'To some extent', 'Yes'],
      items: 7,
      ratings: 15,
      percentAgreement: v(0.714),
      fleissKappa: { value: null, reason: 'unequal_ratings' },
      krippendorffAlphaNominal: v(0.5),
      krippendorffAlphaOrdinal: v(0.6),
      intervals: { percentAgreement: wil(0.35, 0.92), fleissKappa: off, krippendorffAlphaNominal: off, krippendorffAlphaOrdinal: off },
      pairs: [
        {
          annotators: ['r1', 'r2'],
          items: 7,
          percentAgreement: v(0.714),
          cohenKappa: v(0.5),
          cohenKappaLinear: v(0.55),
          cohenKappaQuadratic: v(0.6),
          intervals: { percentAgreement: wil(0.35, 0.92), cohenKappa: off, cohenKappaLinear: off, cohenKappaQuadratic: off },
        },
      ],
    },
  ],
  macro: {
    percentAgreement: v(0.714),
    fleissKappa: { value: null, reason: 'no_defined_values' },
    krippendorffAlphaNominal: v(0.5),
    krippendorffAlphaOrdinal: v(0.6),
    criteriaIncluded: { percentAgreement: 1, fleissKappa: 0, krippendorffAlphaNominal: 1, krippendorffAlphaOrdinal: 1 },
    intervals: { percentAgreement: off, fleissKappa: off, krippendorffAlphaNominal: off, krippendorffAlphaOrdinal: off },
  },
};

/** Error-bounded acceptance beside Padó's plan: "Yes" accepted with the guarantee, Padó's "Yes" too. */
export const acceptance: AcceptanceDto = {
  epsilon: 0.05,
  delta: 0.05,
  method: 'holm',
  stratifiedBy: 'class',
  pool: 400,
  calibration: 300,
  strata: [
    {
      label: 'Yes',
      predicted: 'Yes',
      n: 200,
      errors: 1,
      pool: 260,
      errorRate: v(0.005),
      pValue: 0.00035,
      pAdjusted: v(0.0007),
      errorUpper: v(0.0235),
      errorUpperSimultaneous: v(0.0268),
      accepted: true,
    },
    {
      label: 'No',
      predicted: 'No',
      n: 100,
      errors: 30,
      pool: 140,
      errorRate: v(0.3),
      pValue: 1,
      pAdjusted: v(1),
      errorUpper: v(0.38),
      errorUpperSimultaneous: v(0.39),
      accepted: false,
    },
  ],
  acceptedLabels: ['Yes'],
  acceptedItems: 260,
  acceptedShare: v(0.65),
  judgeLabelledItems: 60,
  humanLabels: 340,
  coverage: v(0.6),
  effortSaved: v(0.15),
  errorBound: v(0.05),
  errorUpperAccepted: v(0.0268),
  finalErrorRateBound: v(0.0075),
  pado: {
    acceptedClass: 'Yes',
    acceptedItems: 260,
    acceptedShare: v(0.65),
    observedError: v(0.005),
    errorUpper: v(0.0235),
    guaranteed: true,
    effortSaved: v(0.15),
  },
};

const plan = {
  n: 10,
  accJudge: v(0.7),
  classes: [
    { label: 'Yes', predicted: 6, correct: 5, classwiseAccuracy: v(5 / 6), decision: 'accept' as const, interval: wil(0.44, 0.97) },
    { label: 'No', predicted: 4, correct: 2, classwiseAccuracy: v(0.5), decision: 'review' as const, interval: wil(0.15, 0.85) },
  ],
  unpredictedLabels: ['To some extent'],
  acceptedClass: 'Yes',
  reviewedClasses: ['No'],
  reviewed: 4,
  accHybrid: v(0.9),
  effortSaved: v(0.6),
  errorsToFix: 1,
  extraReviewsExpected: 3,
  accExpectedAfter: v(0.95),
  effortSavedExpectedAfter: v(0.3),
  extraReviewsWorstCase: 6,
  effortSavedWorstCase: { value: null, reason: 'no_items' } as StatDto,
  unjudged: 1,
  intervals: { accJudge: wil(0.4, 0.9), accHybrid: wil(0.6, 0.98), effortSaved: wil(0.3, 0.8) },
  acceptance,
};

/** A rubric study's hybrid report: the plan of one dimension for both tutors, one tutor's own, another dimension's. */
export const rubricHybrid: RubricHybridReportDto = {
  ...plan,
  studyId: 9,
  kind: 'rubric',
  judge: 'gpt',
  sample: 1,
  criterion: 'mi',
  lenient: false,
  target: 0.95,
  labels: ['No', 'To some extent', 'Yes'],
  byModel: [{ ...plan, model: 't1' }],
  byCriterion: [
    { ...plan, criterion: 'mi', name: 'Notices the mistake', lenient: false },
    { ...plan, criterion: 'leak', name: 'Keeps the answer back', lenient: false },
  ],
};
