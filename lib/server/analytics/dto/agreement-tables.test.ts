import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type AgreementCriterionDto,
  type AgreementPairDto,
  type AgreementReportDto,
  CRITERION_STATS,
  type IntervalDto,
  PAIR_STATS,
  type StatDto,
} from '@/lib/server/analytics/dto';

/*
 * A statistic is named once: the agreement DTO's statistic fields are the keys of the column lists, so adding one
 * to the agreement report of every kind is an entry in CRITERION_STATS / PAIR_STATS and its computation in
 * agreementByCriterion — the type check (npx tsc) refuses a report that leaves the new field out.
 */
type CriterionKeys = (typeof CRITERION_STATS)[number]['key'];
type PairKeys = (typeof PAIR_STATS)[number]['key'];

describe('agreement statistics named once', () => {
  it('derives the criterion and pair DTO fields and intervals from the column lists', () => {
    expectTypeOf<keyof AgreementCriterionDto['intervals']>().toEqualTypeOf<CriterionKeys>();
    expectTypeOf<keyof AgreementPairDto['intervals']>().toEqualTypeOf<PairKeys>();
    expectTypeOf<Pick<AgreementCriterionDto, CriterionKeys>>().toEqualTypeOf<Record<CriterionKeys, StatDto>>();
    expectTypeOf<Pick<AgreementPairDto, PairKeys>>().toEqualTypeOf<Record<PairKeys, StatDto>>();
    expectTypeOf<keyof AgreementReportDto['macro']['intervals']>().toEqualTypeOf<CriterionKeys>();
    expectTypeOf<AgreementReportDto['macro']['intervals'][CriterionKeys]>().toEqualTypeOf<IntervalDto>();
    // The lists' keys are literal, not `string` (which would let any field name through).
    const keys: CriterionKeys[] = CRITERION_STATS.map((s) => s.key);
    expect(keys).toEqual(['percentAgreement', 'fleissKappa', 'krippendorffAlphaNominal', 'krippendorffAlphaOrdinal']);
    expect(PAIR_STATS.map((s) => s.key)).toEqual(['percentAgreement', 'cohenKappa', 'cohenKappaLinear', 'cohenKappaQuadratic']);
  });
});
