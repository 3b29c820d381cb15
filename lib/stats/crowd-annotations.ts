/**
 * Many annotators' labels as the EM aggregators (Dawid–Skene, MACE) read them: one triple per label,
 * indexed into the declared items, annotators and labels (STATS-3 §2.2, §3.2). The declared sets,
 * not the observed ones, fix every dimension, because an unused label changes MACE's 1/K and gives
 * Dawid–Skene a prior of 0 (STATS-3 §0 item 1).
 */
import { declaredIndex } from './stats3-types';

/** One label given by one annotator to one item. */
export type Annotation<I = string, A = string, L = string> = readonly [item: I, annotator: A, label: L];

/** The input of Dawid–Skene and MACE: declared labels (in order), annotators, items, and the labels given. */
export interface CrowdLabels<I = string, A = string, L = string> {
  readonly labels: readonly L[];
  readonly annotators: readonly A[];
  readonly items: readonly I[];
  readonly annotations: ReadonlyArray<Annotation<I, A, L>>;
}

/** The same annotations as indices: `item[t]`, `annotator[t]`, `label[t]` for annotation t. */
export interface IndexedAnnotations {
  readonly nItems: number;
  readonly nAnnotators: number;
  readonly nLabels: number;
  readonly item: Int32Array;
  readonly annotator: Int32Array;
  readonly label: Int32Array;
  /** Annotation indices of each item, in input order. */
  readonly byItem: readonly number[][];
  /** Number of labels each annotator gave. */
  readonly perAnnotator: Int32Array;
}

function indexOf<T>(list: readonly T[], what: string): Map<T, number> {
  const m = new Map<T, number>();
  list.forEach((x, i) => {
    if (m.has(x)) throw new RangeError(`duplicate ${what} ${String(x)}`);
    m.set(x, i);
  });
  return m;
}

/**
 * Indexes the annotations. Throws on an undeclared item, annotator or label, and on an item with no
 * label (STATS-3 §1.3); `oneLabelPerAnnotator` (MACE) also refuses two labels from one annotator on
 * one item, which Dawid–Skene allows (anaesthetist 1 of the 1979 data relabelled patients).
 */
export function indexAnnotations<I, A, L>(data: CrowdLabels<I, A, L>, opts: { oneLabelPerAnnotator?: boolean } = {}): IndexedAnnotations {
  const items = indexOf(data.items, 'item');
  const annotators = indexOf(data.annotators, 'annotator');
  indexOf(data.labels, 'label');
  const n = data.annotations.length;
  const item = new Int32Array(n);
  const annotator = new Int32Array(n);
  const label = new Int32Array(n);
  const byItem: number[][] = data.items.map(() => []);
  const perAnnotator = new Int32Array(data.annotators.length);
  const seen = new Set<number>();
  data.annotations.forEach(([i, a, l], t) => {
    const ii = items.get(i);
    const aa = annotators.get(a);
    if (ii === undefined) throw new RangeError(`annotation ${t}: item ${String(i)} is not declared`);
    if (aa === undefined) throw new RangeError(`annotation ${t}: annotator ${String(a)} is not declared`);
    item[t] = ii;
    annotator[t] = aa;
    label[t] = declaredIndex(data.labels, l, `annotation ${t}`);
    if (opts.oneLabelPerAnnotator) {
      const key = ii * data.annotators.length + aa;
      if (seen.has(key)) throw new RangeError(`annotator ${String(a)} labelled item ${String(i)} twice`);
      seen.add(key);
    }
    byItem[ii].push(t);
    perAnnotator[aa]++;
  });
  byItem.forEach((ts, i) => {
    if (ts.length === 0) throw new RangeError(`item ${String(data.items[i])} has no label`);
  });
  return {
    nItems: data.items.length,
    nAnnotators: data.annotators.length,
    nLabels: data.labels.length,
    item,
    annotator,
    label,
    byItem,
    perAnnotator,
  };
}
