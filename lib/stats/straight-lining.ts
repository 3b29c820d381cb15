/**
 * Straight-lining of one annotator: how much of their work is one label, and the longest stretch of
 * the same label in the order they gave them (issue 27, "annotator quality report"). Not part of
 * STATS-3 and not covered by its vectors: Concord's own descriptive figures, tested in
 * straight-lining.test.ts. An annotator's own position bias is `humanPositionBias` called on their
 * records alone (position-bias.ts).
 */
import { type Maybe, none, some } from './stats3-types';

export interface StraightLining {
  /** Labels counted (missing ones skipped). */
  readonly n: number;
  /** The most-used label; among equally used labels the first declared one (counts compared exactly). */
  readonly mostUsed: Maybe<number>;
  /** Its share of the annotator's labels. */
  readonly mostUsedShare: Maybe<number>;
  /** Length of the longest run of one label, in the order given. */
  readonly longestRun: number;
  /** The label of that run; the earliest run among equally long ones. */
  readonly longestRunLabel: Maybe<number>;
}

/**
 * Straight-lining figures of one annotator's labels, given as codes into the declared labels in the order
 * the annotator gave them (e.g. by submission time); null or −1 = missing and skipped without breaking a run,
 * because a skipped item is not a change of mind.
 * Formula: share = max_k n_k / n; longest run = the largest r with r consecutive equal labels.
 */
export function straightLining(codes: ReadonlyArray<number | null>, nLabels: number): StraightLining {
  const counts = new Array<number>(nLabels).fill(0);
  let n = 0;
  let runLabel = -1;
  let run = 0;
  let longestRun = 0;
  let longestRunLabel = -1;
  codes.forEach((c, i) => {
    if (c === null || c < 0) return;
    if (!(Number.isInteger(c) && c < nLabels)) throw new RangeError(`label ${i}: code ${c} is not a declared label`);
    counts[c]++;
    n++;
    run = c === runLabel ? run + 1 : 1;
    runLabel = c;
    if (run > longestRun) {
      longestRun = run;
      longestRunLabel = c;
    }
  });
  if (n === 0) {
    return { n: 0, mostUsed: none('no_items'), mostUsedShare: none('no_items'), longestRun: 0, longestRunLabel: none('no_items') };
  }
  let best = 0;
  for (let k = 1; k < nLabels; k++) if (counts[k] > counts[best]) best = k;
  return { n, mostUsed: some(best), mostUsedShare: some(counts[best] / n), longestRun, longestRunLabel: some(longestRunLabel) };
}
