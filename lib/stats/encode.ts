/**
 * Turning labels into codes, and codes into the count tables every statistic works on.
 *
 * The hot paths (contingency tables, item counts) take codes and make one pass without
 * allocating per label. The label wrappers are for convenience and tests.
 */
import type { CountTable, ItemCounts, ItemCountsInput, LabelCodes, RatingMatrix } from './types';

type Label = string | number;

function codeIndex<L extends Label>(labels: readonly L[]): Map<L, number> {
  const index = new Map<L, number>();
  labels.forEach((l, k) => {
    if (index.has(l)) throw new Error(`duplicate label in the declared label set: ${String(l)}`);
    index.set(l, k);
  });
  return index;
}

/**
 * Encodes labels as indices into the declared label set; `null`/`undefined` become −1 (missing).
 * Throws on a label that is not declared.
 * Formula: code(x) = k such that labels[k] = x.
 * @see STATS.md §0 item 1 (always pass the declared label set).
 */
export function encodeLabels<L extends Label>(values: ReadonlyArray<L | null | undefined>, labels: readonly L[]): Int8Array | Int32Array {
  const index = codeIndex(labels);
  const out = labels.length <= 127 ? new Int8Array(values.length) : new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      out[i] = -1;
      continue;
    }
    const k = index.get(v);
    if (k === undefined) throw new Error(`label ${JSON.stringify(v)} is not in the declared label set`);
    out[i] = k;
  }
  return out;
}

function checkCode(c: number, q: number): void {
  if (c >= q || !Number.isInteger(c)) throw new RangeError(`label code ${c} is outside the declared set of ${q}`);
}

/**
 * Two-rater contingency table n_kl = #items with a = k and b = l; items missing either label are
 * skipped (listwise). `items` optionally lists the item indices to use, with repetition (a
 * bootstrap resample).
 * Formula: n_kl = Σ_i [a_i = k][b_i = l].
 * @see Cohen (1960); STATS.md §1 (two-rater contingency table).
 */
export function contingencyTable(a: LabelCodes, b: LabelCodes, q: number, items?: ArrayLike<number>): number[][] {
  if (a.length !== b.length) throw new Error(`label arrays differ in length: ${a.length} vs ${b.length}`);
  const cells = new Array<number>(q * q).fill(0);
  // Two copies of the loop keep the common no-resample path free of a per-item branch.
  if (items) {
    for (let t = 0; t < items.length; t++) {
      const i = items[t];
      const x = a[i];
      const y = b[i];
      if (x === null || y === null || x < 0 || y < 0) continue;
      if (x >= q || y >= q) outOfRange(x, y, q);
      cells[x * q + y]++;
    }
  } else {
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const y = b[i];
      if (x === null || y === null || x < 0 || y < 0) continue;
      if (x >= q || y >= q) outOfRange(x, y, q);
      cells[x * q + y]++;
    }
  }
  const table: number[][] = new Array(q);
  for (let k = 0; k < q; k++) table[k] = cells.slice(k * q, k * q + q);
  return table;
}

function outOfRange(x: number, y: number, q: number): never {
  throw new RangeError(`label code ${Math.max(x, y)} is outside the declared set of ${q}`);
}

/**
 * Contingency table from string (or numeric) labels and the declared label set.
 * Formula: n_kl = Σ_i [r1_i = labels[k]][r2_i = labels[l]].
 * @see Cohen (1960).
 */
export function tableFromLabels<L extends Label>(
  rater1: ReadonlyArray<L | null>,
  rater2: ReadonlyArray<L | null>,
  labels: readonly L[],
): number[][] {
  return contingencyTable(encodeLabels(rater1, labels), encodeLabels(rater2, labels), labels.length);
}

/**
 * Item × rater matrix of codes from rows of labels (`null` = missing).
 * Formula: codes[i·m + j] = code(ratings[i][j]).
 * @see STATS.md §1 (`ratings[i][j]`, units × raters).
 */
export function ratingMatrixFromLabels<L extends Label>(
  ratings: ReadonlyArray<ReadonlyArray<L | null>>,
  labels: readonly L[],
): RatingMatrix {
  const nItems = ratings.length;
  const nRaters = nItems === 0 ? 0 : ratings[0].length;
  const flat: Array<L | null> = [];
  for (const row of ratings) {
    if (row.length !== nRaters) throw new Error('every item must have one entry per rater (null for missing)');
    for (const v of row) flat.push(v);
  }
  return { nItems, nRaters, codes: encodeLabels(flat, labels) };
}

/**
 * Item × category counts from an item × rater code matrix; `items` optionally lists the item
 * indices to use, with repetition.
 * Formula: r_ik = Σ_j [codes_ij = k].
 * @see Fleiss (1971) count layout.
 */
export function itemCountsFromRatings(m: RatingMatrix, q: number, items?: ArrayLike<number>): ItemCounts {
  const nItems = items ? items.length : m.nItems;
  const counts = new Float64Array(nItems * q);
  const r = m.nRaters;
  for (let t = 0; t < nItems; t++) {
    const i = items ? items[t] : t;
    const base = i * r;
    for (let j = 0; j < r; j++) {
      const c = m.codes[base + j];
      if (c === null || c < 0) continue;
      if (c >= q) checkCode(c, q);
      counts[t * q + c]++;
    }
  }
  return { nItems, q, counts };
}

/**
 * Item × category counts from rows of labels and the declared label set.
 * Formula: r_ik = Σ_j [ratings_ij = labels[k]].
 * @see Fleiss (1971) count layout.
 */
export function countsFromLabels<L extends Label>(ratings: ReadonlyArray<ReadonlyArray<L | null>>, labels: readonly L[]): ItemCounts {
  return itemCountsFromRatings(ratingMatrixFromLabels(ratings, labels), labels.length);
}

/**
 * Item × category counts from parallel code arrays, one per rater (e.g. two reviewers).
 * Formula: r_ik = Σ_j [raters[j][i] = k].
 * @see Fleiss (1971) count layout.
 */
export function itemCountsFromRaters(raters: ReadonlyArray<LabelCodes>, q: number, items?: ArrayLike<number>): ItemCounts {
  const len = raters.length === 0 ? 0 : raters[0].length;
  for (const r of raters) if (r.length !== len) throw new Error('rater code arrays differ in length');
  const nItems = items ? items.length : len;
  const counts = new Float64Array(nItems * q);
  for (const r of raters) {
    for (let t = 0; t < nItems; t++) {
      const c = r[items ? items[t] : t];
      if (c === null || c < 0) continue;
      if (c >= q) checkCode(c, q);
      counts[t * q + c]++;
    }
  }
  return { nItems, q, counts };
}

/**
 * Normalises `number[][]` counts to the flat `ItemCounts` form (no copy when already flat).
 * Formula: counts[i·q + k] = rows[i][k].
 * @see Fleiss (1971) count layout.
 */
export function asItemCounts(input: ItemCountsInput): ItemCounts {
  if (!Array.isArray(input)) return input as ItemCounts;
  const rows = input as ReadonlyArray<ArrayLike<number>>;
  const nItems = rows.length;
  const q = nItems === 0 ? 0 : rows[0].length;
  const counts = new Float64Array(nItems * q);
  for (let i = 0; i < nItems; i++) {
    const row = rows[i];
    if (row.length !== q) throw new Error('every item row must have one count per declared category');
    for (let k = 0; k < q; k++) counts[i * q + k] = row[k];
  }
  return { nItems, q, counts };
}

/**
 * Element-wise sum of count tables of the same size, e.g. per-criterion tables pooled into one
 * (a pooled κ is not the mean of per-criterion κs; label it as pooled).
 * Formula: T_kl = Σ_t T^(t)_kl.
 * @see STATS.md §1 (macro vs pooled).
 */
export function sumTables(tables: readonly CountTable[]): number[][] {
  if (tables.length === 0) throw new Error('sumTables needs at least one table');
  const q = tableSize(tables[0]);
  const out = Array.from({ length: q }, () => new Array<number>(q).fill(0));
  for (const t of tables) {
    if (tableSize(t) !== q) throw new Error('tables differ in size');
    for (let k = 0; k < q; k++) for (let l = 0; l < q; l++) out[k][l] += t[k][l];
  }
  return out;
}

/**
 * Size q of a square count table; throws when it is not square.
 * Formula: q = #rows = #columns.
 * @see STATS.md §1 (two-rater contingency table over the declared categories).
 */
export function tableSize(table: CountTable): number {
  const q = table.length;
  for (const row of table) if (row.length !== q) throw new Error('count table must be square (declared categories × declared categories)');
  return q;
}
