/**
 * How a kind's labels are packed (docs/decisions/0005-packed-labels.md, 0010-rubric-labels.md): each label of an
 * annotation, ruling or judge verdict is one character, 48 + a value that holds the unit (a pairwise criterion's
 * dictionary code, a rubric dimension's index) and the label's code in the unit's label set. The readers of the
 * packs (`lib/server/ground-truth/packed-labels.ts`, the dashboards) walk them once for every kind and ask the kind
 * only to split the value. Pure: the two functions are called per label, so they allocate nothing.
 */
export interface LabelsFacet {
  /** The unit of a packed value (the character's code − 48). */
  packedUnit(value: number): number;
  /** The label's code in its unit's label set, of a packed value. */
  packedLabel(value: number): number;
}
