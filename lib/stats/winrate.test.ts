import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LOSE,
  PAIRWISE_LABELS,
  TIE,
  WIN,
  consolidatePositionSwap,
  encodeLabels,
  kmpAggregate,
  kmpLeaderboard,
  winRate,
  winRates,
  wtlCounts,
} from './index';

describe('win rate', () => {
  it('codes follow the declared order lose < tie < win', () => {
    expect(Array.from(encodeLabels(['lose', 'tie', 'win'], PAIRWISE_LABELS))).toEqual([LOSE, TIE, WIN]);
  });

  it('counts W/T/L with missing labels apart, optionally over resampled items', () => {
    const codes = new Int8Array([WIN, WIN, TIE, LOSE, -1]);
    expect(wtlCounts(codes)).toEqual({ win: 2, tie: 1, loss: 1, missing: 1 });
    expect(wtlCounts(codes, { items: [0, 0, 3] })).toEqual({ win: 2, tie: 0, loss: 1, missing: 0 });
    expect(() => wtlCounts([5])).toThrow(RangeError);
  });

  it('no items: every policy is no_items; only ties: excluding ties leaves no comparisons', () => {
    const none = winRates({ win: 0, tie: 0, loss: 0 });
    for (const s of [none.half, none.non_win, none.exclude, none.win_or_tie]) expect(s.reason).toBe('no_items');
    const ties = winRates({ win: 0, tie: 4, loss: 0 });
    expect(ties.half.value).toBe(0.5);
    expect(ties.non_win.value).toBe(0);
    expect(ties.exclude).toEqual({ value: null, reason: 'no_comparisons' });
  });

  it('policies are ordered: non_win ≤ half ≤ win_or_tie, and half = ½ when wins equal losses', () => {
    const wtl = fc.record({ win: fc.nat(50), tie: fc.nat(50), loss: fc.nat(50) });
    fc.assert(
      fc.property(wtl, (c) => {
        fc.pre(c.win + c.tie + c.loss > 0);
        const r = winRates(c);
        expect(r.non_win.value as number).toBeLessThanOrEqual(r.half.value as number);
        expect(r.half.value as number).toBeLessThanOrEqual(r.win_or_tie.value as number);
        if (c.win + c.tie > 0) expect(winRate({ win: c.win, tie: c.tie, loss: c.win }, 'half').value).toBeCloseTo(0.5, 12);
        // Swapping the sides of every comparison turns the win rate w into 1 − w (ties as ½).
        expect((winRate(c).value as number) + (winRate({ win: c.loss, tie: c.tie, loss: c.win }).value as number)).toBeCloseTo(1, 12);
      }),
    );
  });

  it('position-swap consolidation keeps a verdict only when both orders agree on a non-tie', () => {
    const g1 = [WIN, WIN, TIE, LOSE, TIE, -1];
    const g2 = [WIN, LOSE, TIE, LOSE, WIN, WIN];
    expect(Array.from(consolidatePositionSwap(g1, g2))).toEqual([WIN, TIE, TIE, LOSE, TIE, -1]);
  });
});

describe('KMP-Bench leaderboard', () => {
  it('assembles per-criterion win rates into General, Principle, Overall Acc and Overall Judgement', () => {
    const row = kmpLeaderboard(
      [
        { id: 'g1', kind: 'general', counts: { win: 3, tie: 0, loss: 1 } },
        { id: 'g2', kind: 'general', counts: { win: 1, tie: 2, loss: 1 } },
        { id: 'p1a', kind: 'principle', principle: 'P1', counts: { win: 4, tie: 0, loss: 0 } },
        { id: 'p1b', kind: 'principle', principle: 'P1', counts: { win: 0, tie: 0, loss: 4 } },
        { id: 'p2a', kind: 'principle', principle: 'P2', counts: { win: 1, tie: 0, loss: 3 } },
        { id: 'overall', kind: 'overall', counts: { win: 2, tie: 2, loss: 0 } },
      ],
      { policy: 'half' },
    );
    expect(row.perCriterion.g1.value).toBe(0.75);
    expect(row.generalLevelAcc.value).toBeCloseTo((0.75 + 0.5) / 2, 12);
    expect(row.principleLevelAcc.P1.value).toBe(0.5);
    expect(row.principleLevelAcc.P2.value).toBe(0.25);
    expect(row.overallAcc.value).toBeCloseTo(0.5 * (0.625 + 0.375), 12);
    expect(row.overallJudgement.value).toBe(0.75);
    expect(row.policy).toBe('half');
  });

  it('a criterion without items is left out of its mean and counted; no general criteria → Overall undefined', () => {
    const agg = kmpAggregate({ general: [{ value: null, reason: 'no_items' }, 0.4], principles: { P: [0.2, 0.6] } });
    expect(agg.generalLevelAcc).toMatchObject({ value: 0.4, included: 1, excluded: 1 });
    const none = kmpAggregate({ general: [], principles: { P: [0.5] } });
    expect(none.overallAcc).toEqual({ value: null, reason: 'no_defined_values' });
    expect(kmpLeaderboard([]).overallJudgement.reason).toBe('no_items');
  });

  it('rejects a criterion listed twice', () => {
    const c = { id: 'x', kind: 'general' as const, counts: { win: 1, tie: 0, loss: 0 } };
    expect(() => kmpLeaderboard([c, c])).toThrow(/twice/);
  });
});
