import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PairOutcome, bradleyTerry, eloOnline } from './index';

const games: PairOutcome[] = [
  { a: 'A', b: 'B', winsA: 5, winsB: 3, ties: 2 },
  { a: 'B', b: 'C', winsA: 4, winsB: 4, ties: 1 },
  { a: 'A', b: 'C', winsA: 2, winsB: 6, ties: 0 },
  { a: 'C', b: 'D', winsA: 1, winsB: 2, ties: 3 },
];

describe('Bradley–Terry', () => {
  it('solves the likelihood equations: expected wins equal observed wins (ties as ½) for every model', () => {
    const bt = bradleyTerry(games);
    expect(bt.converged).toBe(true);
    const r = (m: string) => bt.ratings[m].value as number;
    const p = (x: string, y: string) => 1 / (1 + 10 ** ((r(y) - r(x)) / 400));
    for (const m of bt.models) {
      let observed = 0;
      let expected = 0;
      for (const g of games) {
        const n = g.winsA + g.winsB + g.ties;
        if (g.a === m) {
          observed += g.winsA + g.ties / 2;
          expected += n * p(g.a, g.b);
        } else if (g.b === m) {
          observed += g.winsB + g.ties / 2;
          expected += n * p(g.b, g.a);
        }
      }
      expect(expected).toBeCloseTo(observed, 8);
    }
    const mean = bt.models.reduce((s, m) => s + r(m), 0) / bt.models.length;
    expect(mean).toBeCloseTo(1000, 9);
  });

  it('does not depend on how a pair is oriented or on the order of the outcomes', () => {
    const flipped = games.map((g) => ({ a: g.b, b: g.a, winsA: g.winsB, winsB: g.winsA, ties: g.ties })).reverse();
    const x = bradleyTerry(games).ratings;
    const y = bradleyTerry(flipped).ratings;
    for (const m of Object.keys(x)) expect(y[m].value as number).toBeCloseTo(x[m].value as number, 8);
  });

  it('an anchor pins one model and shifts the others by the same amount', () => {
    const free = bradleyTerry(games).ratings;
    const pinned = bradleyTerry(games, { anchor: { model: 'B', rating: 1114 } }).ratings;
    const shift = (pinned.B.value as number) - (free.B.value as number);
    expect(pinned.B.value).toBeCloseTo(1114, 9);
    for (const m of Object.keys(free)) expect((pinned[m].value as number) - (free[m].value as number)).toBeCloseTo(shift, 8);
  });

  it('a model that never loses makes the MLE diverge: every rating is null with reason separation', () => {
    const r = bradleyTerry([
      { a: 'A', b: 'B', winsA: 3, winsB: 0, ties: 0 },
      { a: 'B', b: 'C', winsA: 2, winsB: 2, ties: 0 },
    ]);
    expect(r.converged).toBe(false);
    for (const m of ['A', 'B', 'C']) expect(r.ratings[m]).toEqual({ value: null, reason: 'separation' });
    // A single tie is half a win each way, which restores a finite solution.
    const tied = bradleyTerry([
      { a: 'A', b: 'B', winsA: 3, winsB: 0, ties: 1 },
      { a: 'B', b: 'C', winsA: 2, winsB: 2, ties: 0 },
    ]);
    expect(tied.converged).toBe(true);
    expect(tied.ratings.A.value as number).toBeGreaterThan(tied.ratings.B.value as number);
  });

  it('a model listed without any outcome is disconnected (separation); no models gives an empty result', () => {
    expect(bradleyTerry(games, { models: ['Z'] }).ratings.Z.reason).toBe('separation');
    expect(bradleyTerry([]).ratings).toEqual({});
  });
});

describe('online Elo', () => {
  const battle = fc.record({
    a: fc.constantFrom('A', 'B', 'C'),
    b: fc.constantFrom('A', 'B', 'C'),
    outcome: fc.constantFrom('a' as const, 'b' as const, 'tie' as const),
  });

  it('is zero-sum: ratings always add up to init × number of models seen', () => {
    fc.assert(
      fc.property(fc.array(battle, { maxLength: 40 }), (bs) => {
        const valid = bs.filter((x) => x.a !== x.b);
        const r = eloOnline(valid, { k: 32 });
        const models = Object.keys(r);
        expect(models.reduce((s, m) => s + r[m], 0)).toBeCloseTo(1000 * models.length, 8);
      }),
    );
  });

  it('depends on the order of battles (which is why Bradley–Terry is preferred)', () => {
    const bs = [
      { a: 'A', b: 'B', outcome: 'a' as const },
      { a: 'B', b: 'C', outcome: 'a' as const },
      { a: 'C', b: 'A', outcome: 'a' as const },
    ];
    expect(eloOnline(bs)).not.toEqual(eloOnline([...bs].reverse()));
    expect(() => eloOnline([{ a: 'A', b: 'A', outcome: 'tie' }])).toThrow(/itself/);
  });
});
