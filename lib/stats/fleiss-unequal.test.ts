import { describe, expect, it } from 'vitest';
import { fleissKappa } from './multirater';

/*
 * Fleiss' κ with unequal numbers of ratings per item (Gwet's generalisation, SPEC.md "Many raters"), checked on
 * cases computed by hand with fractions. Rows are items, columns the counts of each label (Fleiss' format).
 */
describe("Fleiss' κ with unequal numbers of ratings per item", () => {
  it('3, 2 and 4 ratings: κ = 179/431', () => {
    // Labels (lose, tie, win): [win, win, lose], [tie, tie], [win, lose, lose, lose].
    // P̄ = (2/6 + 2/2 + 6/12)/3 = 11/18; π = (13/36, 12/36, 11/36); Pₑ = 434/1296; κ = (11/18 − Pₑ)/(1 − Pₑ) = 179/431.
    const r = fleissKappa([
      [1, 0, 2],
      [0, 2, 0],
      [3, 0, 1],
    ]);
    expect(r.value).toBeCloseTo(179 / 431, 14);
    expect(r.po).toBeCloseTo(11 / 18, 14);
    expect(r.pe).toBeCloseTo(434 / 1296, 14);
  });

  it('2 and 3 ratings: κ = 1/4', () => {
    // [a, a], [a, b, b]: P̄ = (1 + 1/3)/2 = 2/3; π = (2/3, 1/3); Pₑ = 5/9; κ = (2/3 − 5/9)/(4/9) = 1/4.
    expect(
      fleissKappa([
        [2, 0],
        [1, 2],
      ]).value,
    ).toBeCloseTo(1 / 4, 14);
  });

  it('an item with one rating counts in the label shares, not in the agreement: κ = 13/40', () => {
    // As above plus [b]: P̄ stays 2/3 (items with two or more ratings); π = (4/9, 5/9) over all three items;
    // Pₑ = 41/81; κ = (2/3 − 41/81)/(40/81) = 13/40.
    expect(
      fleissKappa([
        [2, 0],
        [1, 2],
        [0, 1],
      ]).value,
    ).toBeCloseTo(13 / 40, 14);
  });

  it('equals Fleiss (1971) when every item has the same number of ratings', () => {
    // Two items, three ratings each: [a, a, b], [b, b, b]. P̄ = (1/3 + 1)/2 = 2/3; p = (1/3, 2/3); Pₑ = 5/9; κ = 1/4.
    expect(
      fleissKappa([
        [2, 1],
        [0, 3],
      ]).value,
    ).toBeCloseTo(1 / 4, 14);
  });
});
