import crypto from 'node:crypto';
import type { CrowdLabels } from '@/lib/stats/crowd-annotations';
import { type DawidSkeneResult, dawidSkene } from '@/lib/stats/dawid-skene';
import { type MaceResult, mace } from '@/lib/stats/mace';
import type { PackedReviewerLabels } from './packed-labels';
import type { ModelRule } from './rule';

/*
 * The ground-truth rules `dawid_skene` and `mace` (decision 0028): unlike the per-item `decide`, a label model is
 * fitted on the whole study, unit by unit (a pairwise criterion, a rubric dimension), over the declared label set
 * of the unit, with the deterministic start and stopping rule of STATS-3 (lib/stats `dawidSkene`, `mace`). The
 * items fitted are those that can enter the ground truth: no review pending and some label. Each reader fits once
 * per read; a ruling still overrides the model's label (`decide` answers `MODEL` only where there is none).
 *
 * A fit is a pure function of its input, and EM takes seconds on a few thousand items (MRBench: up to 1,000
 * iterations per dimension), so fits are cached by the input itself (decision 0041): the digest of the declared
 * labels, annotators, items and every (item, annotator, label) fitted. That digest is the study's labels version as
 * the model sees it: a new or revised label, an undone submission, an excluded or included annotator or a gold mark
 * changes what is fitted and so the digest; a ruling is applied after the fit and needs none. The rule picks the
 * model. The cache lives in each process (the server, the report process) and forgets the oldest fits beyond a
 * bound on the posteriors it holds.
 */

/** Crowd labels as the readers hand them to the models: items, annotators and labels by number. */
export type NumberedCrowd = CrowdLabels<number, number, number>;

/** Posterior cells (items × labels) the cache holds at most, over all its fits: about 32 MB of numbers. */
const MAX_CACHED_CELLS = 4_000_000;
const cache = new Map<string, { fit: DawidSkeneResult | MaceResult; cells: number }>();
let cachedCells = 0;
let fits = 0;

/** How many EM fits this process has run (not answered from the cache): for tests and the bench. */
export const modelFitCount = () => fits;

/** The digest of a fit's input: every number that can change its result, in order. */
function digest(rule: ModelRule, data: NumberedCrowd): string {
  const { labels, annotators, items, annotations } = data;
  // Every number is an index, a code or a user id: 32-bit integers.
  const words = new Int32Array(3 + labels.length + annotators.length + items.length + 3 * annotations.length);
  let k = 0;
  for (const list of [labels, annotators, items]) {
    words[k++] = list.length;
    for (const v of list) words[k++] = v;
  }
  for (const [i, a, l] of annotations) {
    words[k++] = i;
    words[k++] = a;
    words[k++] = l;
  }
  return `${rule}:${crypto.createHash('sha256').update(new Uint8Array(words.buffer)).digest('base64')}`;
}

function cached<F extends DawidSkeneResult | MaceResult>(rule: ModelRule, data: NumberedCrowd, run: () => F): F {
  const key = digest(rule, data);
  const hit = cache.get(key);
  if (hit) {
    // Most recently used last: the oldest go first.
    cache.delete(key);
    cache.set(key, hit);
    return hit.fit as F;
  }
  fits++;
  const fit = run();
  const cells = data.items.length * data.labels.length;
  if (cells > MAX_CACHED_CELLS) return fit;
  cache.set(key, { fit, cells });
  cachedCells += cells;
  for (const [old, entry] of cache) {
    if (cachedCells <= MAX_CACHED_CELLS) break;
    cache.delete(old);
    cachedCells -= entry.cells;
  }
  return fit;
}

/** lib/stats' Dawid–Skene on these labels, fitted once per distinct input in this process. */
export const fitDawidSkene = (data: NumberedCrowd): DawidSkeneResult => cached('dawid_skene', data, () => dawidSkene(data));

/** lib/stats' MACE on these labels, fitted once per distinct input in this process. */
export const fitMace = (data: NumberedCrowd): MaceResult => cached('mace', data, () => mace(data));

/** The model's label of each item on one unit (code, −1 where the item was not fitted) and its posterior probability. */
export type UnitFit = { label: Int8Array; posterior: Float64Array };

/**
 * Fits `rule`'s model on one unit of `n` items with `labelCount` declared labels. `eachVote(i, vote)` calls
 * `vote(annotator, code)` for every label item i has on the unit (one per annotator); only items with
 * `include(i)` are fitted.
 */
export function fitUnit(
  rule: ModelRule,
  labelCount: number,
  n: number,
  eachVote: (i: number, vote: (annotator: number, code: number) => void) => void,
  include: (i: number) => boolean,
): UnitFit {
  const label = new Int8Array(n).fill(-1);
  const posterior = new Float64Array(n);
  const items: number[] = [];
  const annotators = new Set<number>();
  const annotations: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    if (!include(i)) continue;
    const before = annotations.length;
    eachVote(i, (a, code) => {
      if (code < 0 || code >= labelCount) return;
      annotations.push([i, a, code]);
      annotators.add(a);
    });
    if (annotations.length > before) items.push(i);
  }
  if (!items.length) return { label, posterior };
  const data = {
    labels: Array.from({ length: labelCount }, (_, l) => l),
    // Sorted, so the fit does not depend on the order the packs came in.
    annotators: [...annotators].sort((a, b) => a - b),
    items,
    annotations,
  };
  const fit = rule === 'dawid_skene' ? fitDawidSkene(data) : fitMace(data);
  items.forEach((i, k) => {
    label[i] = fit.labels[k];
    posterior[i] = fit.posteriors[k][fit.labels[k]];
  });
  return { label, posterior };
}

/**
 * The model of every unit over a packed read (`readReviewerPacks`): `label[u * n + i]`, `posterior[u * n + i]`.
 * Annotators are the reviewers holding the slots; items with a pending review or no labels are left out.
 */
export function fitPacked(rule: ModelRule, read: PackedReviewerLabels, units: number, labelCount: (u: number) => number): UnitFit {
  const { n, slots: S, given, holder } = read;
  const label = new Int8Array(units * n).fill(-1);
  const posterior = new Float64Array(units * n);
  const include = (i: number) => !read.pending[i] && read.hasLabels[i] === 1;
  for (let u = 0; u < units; u++) {
    const fit = fitUnit(
      rule,
      labelCount(u),
      n,
      (i, vote) => {
        for (let s = 0; s < S; s++) {
          const v = given[(u * n + i) * S + s];
          if (v >= 0) vote(holder[i * S + s], v);
        }
      },
      include,
    );
    label.set(fit.label, u * n);
    posterior.set(fit.posterior, u * n);
  }
  return { label, posterior };
}

/**
 * Under a model rule the export carries each label's posterior probability (empty where a ruling settled it); the
 * per-item rules have none, and their files keep the columns they always had.
 */
export const posteriorColumn = (modelled: boolean): string[] => (modelled ? ['posterior'] : []);
