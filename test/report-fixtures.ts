import type { IntervalDto, RubricAgreementReportDto, StatDto } from '@/lib/server/analytics/dto';

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

