import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LOSE,
  TIE,
  WIN,
  alignmentRate,
  alignmentRateWithoutTies,
  alignmentSummary,
  cohenKappa,
  contingencyTable,
  judgeVsAnnotators,
  mtBenchAgreement,
  percentAgreement,
  positionConsistency,
  sumTables,
} from './index';

const code = fc.integer({ min: -1, max: 2 });
const triples = fc.array(fc.tuple(code, code, code), { minLength: 1, maxLength: 60 });

describe('judge alignment', () => {
  it('alignment rate is exact-match agreement of gold and judge; summary κ equals Cohen κ', () => {
    fc.assert(
      fc.property(triples, (rows) => {
        const gold = rows.map((r) => r[0]);
        const judge = rows.map((r) => r[1]);
        const t = contingencyTable(gold, judge, 3);
        const s = alignmentSummary(t);
        expect(s.rate.rate).toEqual(percentAgreement(t).value === null ? { value: null, reason: 'no_comparisons' } : percentAgreement(t));
        expect(s.kappa).toEqual(cohenKappa(t));
        expect(s.confusion).toEqual(t);
        // Dropping tie pairs: the remaining comparisons are the lose/win cells only.
        const kept = rows.filter((r) => r[0] >= 0 && r[1] >= 0 && r[0] !== TIE && r[1] !== TIE);
        expect(s.withoutTies.total).toBe(kept.length);
        expect(s.withoutTies.agree).toBe(kept.filter((r) => r[0] === r[1]).length);
      }),
    );
  });

  it('without ties: a pair is dropped when either side is a tie; all ties → no_comparisons', () => {
    const t = [
      [2, 1, 0],
      [1, 5, 1],
      [1, 0, 3],
    ];
    expect(alignmentRate(t)).toMatchObject({ agree: 10, total: 14 });
    expect(alignmentRateWithoutTies(t)).toMatchObject({ agree: 5, total: 6 });
    const onlyTies = contingencyTable([TIE, TIE], [TIE, TIE], 3);
    expect(alignmentRateWithoutTies(onlyTies).rate).toEqual({ value: null, reason: 'no_comparisons' });
  });

  it('judge vs annotators counts every vote, and human–human every pair of annotators', () => {
    const judge = [WIN, TIE, LOSE, WIN];
    const a1 = [WIN, TIE, WIN, -1];
    const a2 = [LOSE, WIN, LOSE, WIN];
    const r = judgeVsAnnotators(judge, [a1, a2]);
    expect(r.judgeVsHuman.withTies).toMatchObject({ agree: 4, total: 7 });
    expect(r.judgeVsHuman.withoutTies).toMatchObject({ agree: 3, total: 5 });
    expect(r.humanVsHuman.withTies).toMatchObject({ agree: 0, total: 3 });
    expect(r.humanVsHuman.withoutTies).toMatchObject({ agree: 0, total: 2 });
  });

  it('judgeVsAnnotators equals mtBenchAgreement with one key per item', () => {
    fc.assert(
      fc.property(triples, (rows) => {
        const judge = rows.map((r) => r[0]);
        const a1 = rows.map((r) => r[1]);
        const a2 = rows.map((r) => r[2]);
        const groups = rows.map((r) => ({ judge: [r[0]], humans: [r[1], r[2]] }));
        expect(judgeVsAnnotators(judge, [a1, a2])).toEqual(mtBenchAgreement(groups));
      }),
    );
  });

  it('pooled alignment from per-criterion tables equals alignment over all labels at once', () => {
    fc.assert(
      fc.property(triples, triples, (x, y) => {
        const t = (rows: Array<[number, number, number]>) =>
          contingencyTable(
            rows.map((r) => r[0]),
            rows.map((r) => r[1]),
            3,
          );
        expect(sumTables([t(x), t(y)])).toEqual(t([...x, ...y]));
        expect(alignmentRate(sumTables([t(x), t(y)]))).toEqual(alignmentRate(t([...x, ...y])));
      }),
    );
    expect(() =>
      sumTables([
        [[1]],
        [
          [1, 0],
          [0, 1],
        ],
      ]),
    ).toThrow(/differ in size/);
  });

  it('no comparisons at all gives no_comparisons rates', () => {
    const r = mtBenchAgreement([{ judge: [-1], humans: [WIN] }]);
    expect(r.judgeVsHuman.withTies.rate).toEqual({ value: null, reason: 'no_comparisons' });
    expect(r.humanVsHuman.withTies.total).toBe(0);
  });

  it('position consistency counts items whose two verdicts agree', () => {
    const r = positionConsistency([WIN, WIN, TIE, LOSE, -1], [WIN, LOSE, TIE, WIN, WIN]);
    expect(r).toMatchObject({ agree: 2, total: 4 });
    expect(r.rate.value).toBe(0.5);
    expect(positionConsistency([], []).rate.reason).toBe('no_comparisons');
  });
});
