import 'server-only';
import * as z from 'zod';
import type { Db } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import * as packs from '@/db/queries/packs';
import type { StudyRow } from '@/db/queries/studies';
import { type BootstrapResult, type Interval, PAIRWISE_LABELS, type Stat, itemBootstrap, wilsonInterval } from '@/lib/stats';
import { OVERALL } from '@/lib/validation/common';
import type { Criterion } from '@/lib/validation/pairwise';
import type { Actor } from '../actor';
import { staffStudyOfKind } from '../review/access';
import { invalid, notFound } from '../errors';
import { type ReviewerCodes, codeMap, groundTruthCodes, reviewerCodes } from '../ground-truth/ground-truth';
import { type ItemIndex, readItemIndex } from '../packs/item-index';
import { Segments, itemRanges } from '../packs/pack-text';
import type { BootstrapInfoDto, IntervalDto, Reason, StatDto } from './dto';

/** The declared pairwise label set, in ordinal order; a label's code is its index. */
export const LABEL_SET = PAIRWISE_LABELS;
export const Q = LABEL_SET.length;

export const CONFIDENCE = 0.95 as const;

export function statDto(s: Stat): StatDto {
  return s.value === null ? { value: null, reason: s.reason } : { value: s.value };
}

export const missing = (reason: Reason): StatDto => ({ value: null, reason });

export function wilson(successes: number, n: number): IntervalDto {
  return fromInterval('wilson', wilsonInterval(successes, n, { level: CONFIDENCE }));
}

function fromInterval(method: IntervalDto['method'], i: Interval): IntervalDto {
  return i.lower === null ? { method, lower: null, upper: null, reason: i.reason } : { method, lower: i.lower, upper: i.upper };
}

export const noInterval = (method: IntervalDto['method'], reason: Reason): IntervalDto => ({ method, lower: null, upper: null, reason });

/* ----- options ----- */

/**
 * The most bootstrap replicates a report may ask for. 10,000 take about 1.5–2.5 s on the PandaLM and Bridge demo
 * studies on two cores (measured with the CLI); 100,000 took 17 s, long enough to tie up a core of a shared
 * server for nothing a 95 % interval needs.
 */
export const MAX_BOOTSTRAP_REPLICATES = 10_000;

/** Bootstrap replicates B: 1000 by default, 0 switches the bootstrap off (point estimates only). */
export const replicatesSchema = z.coerce
  .number({ error: 'bootstrap must be a number.' })
  .int({ error: 'bootstrap must be a whole number.' })
  .min(0, { error: 'bootstrap must be at least 0.' })
  .max(MAX_BOOTSTRAP_REPLICATES, {
    error: (issue) =>
      `at most ${MAX_BOOTSTRAP_REPLICATES.toLocaleString('en')} bootstrap replicates, not ${Number(issue.input).toLocaleString('en')}.`,
  })
  .default(1000);

export const judgeNameSchema = z.string({ error: 'Name the judge run.' }).trim().min(1, { error: 'Name the judge run.' });

/* ----- the study ----- */

export type CriterionInfo = { id: string; name: string; level: 'general' | 'principle' | 'overall'; principle?: string };

/** A pairwise study the actor may analyse (leads and admins only). */
export function analysableStudy(db: Db, actor: Actor, studyId: number): StudyRow {
  // The pairwise reports' loaders read pairwise packs; the CLI and the pages ask the kind which report to run, and
  // this refuses a direct call on another kind.
  return staffStudyOfKind(db, actor, studyId, 'pairwise', 'This report');
}

/** The study's criteria in catalog order, then `overall`, which every item has. */
export function studyCriteria(study: StudyRow): CriterionInfo[] {
  const catalog = (study.criteria ?? []) as Criterion[];
  return [
    ...catalog.map((c): CriterionInfo => ({ id: c.id, name: c.name, level: c.level, ...(c.principle ? { principle: c.principle } : {}) })),
    { id: OVERALL, name: 'Overall', level: 'overall' },
  ];
}

/** Principles of the principle-level criteria, in catalog order, with the indices of their criteria. */
export function principleGroups(criteria: readonly CriterionInfo[]): { principle: string; criteria: number[] }[] {
  const groups = new Map<string, number[]>();
  criteria.forEach((c, k) => {
    if (c.level === 'principle' && c.principle) {
      const list = groups.get(c.principle) ?? [];
      list.push(k);
      groups.set(c.principle, list);
    }
  });
  return [...groups].map(([principle, list]) => ({ principle, criteria: list }));
}

/**
 * Everything the reports address by index: items in position order (their index is the one the code queries
 * return), criteria, and each item's model (`source_a`).
 */
export type Frame = {
  study: StudyRow;
  criteria: CriterionInfo[];
  criterionIds: string[];
  /** Number of items. */
  n: number;
  /** Item ids in position order and each id's index. */
  items: ItemIndex;
  models: string[];
  /** Index into `models` of each item's reply a. */
  modelOf: Int32Array;
};

/** The source of an item without one (a reply whose model or tutor is unknown). */
export const NO_SOURCE = '(no source)';

/**
 * The sources of a study's items (models of reply a, or tutors of the reply), sorted, and the index into them of
 * each item (`of[i]`, by item index).
 */
export function itemSources(db: Db, studyId: number, items: ItemIndex): { names: string[]; of: Int32Array } {
  const bySource = aq.itemsBySource(db, studyId);
  const names = [...new Set(bySource.map(([source]) => source ?? NO_SOURCE))].sort();
  const index = new Map(names.map((m, k) => [m, k]));
  const of = new Int32Array(items.n);
  for (const [source, ids] of bySource) {
    const k = index.get(source ?? NO_SOURCE)!;
    // `ids` is the item ids joined by commas.
    let id = 0;
    for (let p = 0; p <= ids.length; p++) {
      const ch = p < ids.length ? ids.charCodeAt(p) : 44;
      if (ch !== 44) {
        id = id * 10 + ch - 48;
        continue;
      }
      const i = items.of(id);
      if (i >= 0) of[i] = k;
      id = 0;
    }
  }
  return { names, of };
}

export function loadFrame(db: Db, study: StudyRow): Frame {
  const criteria = studyCriteria(study);
  const items = readItemIndex(db, study.id);
  const sources = itemSources(db, study.id, items);
  return { study, criteria, criterionIds: criteria.map((c) => c.id), n: items.n, items, models: sources.names, modelOf: sources.of };
}

/** The criterion an option names; an unknown one is refused with the study's criteria (`dimensionIndex` for a rubric). */
export function criterionIndex(frame: Frame, criterion: string): number {
  const c = frame.criterionIds.indexOf(criterion);
  if (c < 0)
    throw invalid(`"${criterion}" is not a criterion of this study; use one of: ${frame.criterionIds.join(', ')}.`, {
      criterion: 'Unknown criterion',
    });
  return c;
}

/** A judge run of the study by name; an unknown name is "not found". */
export function judgeRunNamed(db: Db, studyId: number, name: string) {
  const run = aq.findJudgeRun(db, studyId, name);
  if (!run) throw notFound(`A judge run named "${name}"`);
  return run;
}

/* ----- labels as codes ----- */

/**
 * The counting human labels before adjudication. Per criterion, the items with at least one label and their
 * codes by reviewer slot (row-major, −1 = no label from that slot); who holds each slot of each item.
 */
export type HumanLabels = {
  slots: number;
  byCriterion: { items: Int32Array; codes: Int8Array }[];
  /** Usernames of everyone with a submitted assignment, sorted; a user's index is its position here. */
  users: string[];
  /** `slotUser[i * slots + s]` = index in `users` of whoever holds slot s + 1 of item i, −1 if nobody. */
  slotUser: Int32Array;
};

export function loadHumanLabels(db: Db, frame: Frame): HumanLabels {
  return humanLabelsFrom(db, reviewersOf(db, frame), frame.n, frame.criteria.length);
}

/**
 * The reviewers' labels of any kind in the shape the agreement code reads: who holds each slot, and one compact
 * block per criterion (a rubric's dimension) with only its labelled items, from the dense read of the kind's codes
 * (`given[(c * n + i) * slots + s]`, −1 where none; `holder[i * slots + s]`, 0 where nobody).
 */
export function humanLabelsFrom(
  db: Db,
  read: { slots: number; holder: ArrayLike<number>; given: ArrayLike<number> },
  n: number,
  C: number,
): HumanLabels {
  const S = read.slots;
  // Who holds each submitted slot (from the same read as the labels), and the highest slot held.
  let slots = 1;
  const ids = new Set<number>();
  for (let k = 0; k < n * S; k++) {
    if (read.holder[k] === 0) continue;
    ids.add(read.holder[k]);
    if ((k % S) + 1 > slots) slots = (k % S) + 1;
  }
  const reviewers = packs.usernames(db, [...ids]).sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const userIndex = new Map(reviewers.map(([id], k) => [id, k]));
  const slotUser = new Int32Array(n * slots).fill(-1);
  for (let i = 0; i < n; i++) {
    for (let s = 0; s < slots; s++) {
      const id = read.holder[i * S + s];
      if (id !== 0) slotUser[i * slots + s] = userIndex.get(id)!;
    }
  }

  // One compact block per criterion with only its labelled items, from the dense read (criterion × item × slot;
  // it holds a slot for every planned reviewer, of which only the first `slots` are held).
  const dense = read.given;
  const byCriterion = Array.from({ length: C }, (_, c) => {
    let count = 0;
    for (let i = 0; i < n; i++) {
      const base = (c * n + i) * S;
      for (let s = 0; s < slots; s++) {
        if (dense[base + s] >= 0) {
          count++;
          break;
        }
      }
    }
    const items = new Int32Array(count);
    const codes = new Int8Array(count * slots);
    let r = 0;
    for (let i = 0; i < n; i++) {
      const base = (c * n + i) * S;
      let any = false;
      for (let s = 0; s < slots; s++) if (dense[base + s] >= 0) any = true;
      if (!any) continue;
      items[r] = i;
      for (let s = 0; s < slots; s++) codes[r * slots + s] = dense[base + s];
      r++;
    }
    return { items, codes };
  });
  return { slots, byCriterion, users: reviewers.map(([, username]) => username), slotUser };
}

/** Ground truth as codes, criterion-major: `gold[c * n + i]`, −1 where item i has none on criterion c. */
export type Gold = { gold: Int8Array; labels: number; incompleteItems: number };

/**
 * A read of a frame done once however often a report asks for it: a report that needs both the reviewers' labels and
 * the ground truth (agreement, alignment) reads the labels from the database once. Kept on the frame object, so it
 * goes when the report drops its frame. Every kind's frame reads its reviewers' codes through this.
 */
export function oncePerFrame<F extends object, R>(read: (db: Db, frame: F) => R): (db: Db, frame: F) => R {
  const reads = new WeakMap<F, R>();
  return (db, frame) => {
    let r = reads.get(frame);
    if (r === undefined) reads.set(frame, (r = read(db, frame)));
    return r;
  };
}

/** The reviewers' labels as codes (`reviewerCodes`, in the frame's item indices). */
const reviewersOf = oncePerFrame((db, frame: Frame): ReviewerCodes => reviewerCodes(db, frame.study, frame.criterionIds, frame.items));

/** `groundTruthCodes` (the rules of `groundTruth`, without an object per label) in the frame's indices. */
export function loadGold(db: Db, frame: Frame): Gold {
  const fast = groundTruthCodes(db, frame.study, frame.criterionIds, reviewersOf(db, frame));
  return { gold: fast.gold, labels: fast.labels, incompleteItems: fast.incompleteItems };
}

/**
 * Walks a judge run's packed verdicts over the frame's items, one item range at a time (`read` gives the range's
 * segments joined, as db/queries/packs.ts and db/queries/analytics.ts read them): `visit` gets each segment's item
 * index and where its packed characters are (`text`, `start`..`end`); the kind decodes them. Segments of items the
 * frame does not hold (gold items, another study's items in the range) are skipped.
 */
export function forEachJudgeSegment(
  items: ItemIndex,
  read: (fromItem: number, toItem: number) => string,
  visit: (i: number, text: string, start: number, end: number) => void,
): void {
  for (const [from, to] of itemRanges(items)) {
    const seg = new Segments(read(from, to));
    while (seg.next()) {
      const i = items.of(seg.fields[0]);
      if (i >= 0) visit(i, seg.text, seg.start, seg.end);
    }
  }
}

/**
 * A judge run's verdicts as codes, criterion-major like `Gold`: the verdict given in the canonical order, the
 * one given with the replies swapped, and the one that counts (canonical, else swapped when it is the only one).
 */
export type JudgeCodes = { verdict: Int8Array; original: Int8Array; swapped: Int8Array };

export function loadJudge(db: Db, frame: Frame, runId: number): JudgeCodes {
  const { n } = frame;
  const size = frame.criteria.length * n;
  const original = new Int8Array(size).fill(-1);
  const swapped = new Int8Array(size).fill(-1);
  const verdict = new Int8Array(size).fill(-1);
  const codes = codeMap(db, frame.study.id, frame.criterionIds);
  forEachJudgeSegment(
    frame.items,
    (from, to) => packs.judgeLabelPackText(db, runId, from, to),
    (i, text, start, end) => {
      for (let p = start; p < end; p++) {
        const v = text.charCodeAt(p) - 48;
        const code = (v / 6) | 0;
        const c = codes.indexOf(code);
        if (c < 0) continue; // a criterion no longer in the catalog
        const r = v - 6 * code;
        if (r >= 3) swapped[c * n + i] = r - 3;
        else original[c * n + i] = r;
      }
    },
  );
  for (let k = 0; k < size; k++) verdict[k] = original[k] >= 0 ? original[k] : swapped[k];
  return { verdict, original, swapped };
}

/* ----- the item bootstrap ----- */

/**
 * A reproducible bootstrap seed for one report of one study: FNV-1a over the report's purpose, started from
 * the study's seed, so every report draws its own stream and the same study always gives the same intervals.
 */
export function bootstrapSeed(studySeed: number, purpose: string): number {
  let h = (0x811c9dc5 ^ studySeed) >>> 0;
  for (let k = 0; k < purpose.length; k++) {
    h ^= purpose.charCodeAt(k);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function bootstrapInfo(replicates: number, seed: number): BootstrapInfoDto {
  return { replicates, seed, level: CONFIDENCE, quantile: 'linear' };
}

/**
 * How often each item was drawn in one resample (`w` is reused between replicates); null when the draw is the
 * full sample itself (every item once, in order: the point estimate), which needs no resampling.
 */
export function drawCounts(items: Int32Array, w: Int32Array): Int32Array | null {
  let full = items.length === w.length;
  for (let t = 0; full && t < items.length; t++) full = items[t] === t;
  if (full) return null;
  w.fill(0);
  for (let t = 0; t < items.length; t++) w[items[t]]++;
  return w;
}

/**
 * The rows of a group (rows of one criterion, one annotator pair, one model…), each repeated as often as its
 * item was drawn: the `items` argument lib/stats takes. Every group of an item follows the same draw, so all
 * criteria and raters of a drawn item travel together. One buffer serves every group of a replicate (each
 * result is used before the next call) and grows when a draw repeats an item with many rows.
 */
export class ResampledRows {
  private buf = new Int32Array(0);

  /** The resampled rows, or undefined for the full sample (`drawCounts` null): the lib/stats functions then take every row. */
  of(rowItems: Int32Array, w: Int32Array | null): Int32Array | undefined {
    if (!w) return undefined;
    let size = 0;
    for (let r = 0; r < rowItems.length; r++) size += w[rowItems[r]];
    if (size > this.buf.length) this.buf = new Int32Array(Math.max(size, 2 * this.buf.length));
    const buf = this.buf;
    let k = 0;
    for (let r = 0; r < rowItems.length; r++) {
      for (let c = w[rowItems[r]]; c > 0; c--) buf[k++] = r;
    }
    return buf.subarray(0, k);
  }
}

export type Estimate = { estimate: Stat; interval: IntervalDto };

/**
 * Runs `statistics` on the full sample and on `replicates` item resamples (lib/stats `itemBootstrap`), and
 * returns each statistic with its percentile interval. With 0 replicates only the full sample is computed.
 */
export function bootstrapEstimates<K extends string>(
  nItems: number,
  statistics: (items: Int32Array) => Record<K, Stat>,
  replicates: number,
  seed: number,
): Record<K, Estimate> {
  const out = {} as Record<K, Estimate>;
  if (replicates === 0) {
    const all = new Int32Array(nItems);
    for (let i = 0; i < nItems; i++) all[i] = i;
    const est = statistics(all);
    for (const k of Object.keys(est) as K[]) out[k] = { estimate: est[k], interval: noInterval('bootstrap', 'not_computed') };
    return out;
  }
  const results = itemBootstrap(nItems, statistics, { seed, replicates, level: CONFIDENCE, quantile: 'linear' });
  for (const k of Object.keys(results) as K[]) out[k] = { estimate: results[k].estimate, interval: bootstrapInterval(results[k]) };
  return out;
}

function bootstrapInterval(r: BootstrapResult): IntervalDto {
  return { ...fromInterval('bootstrap', r.interval), undefinedReplicates: r.undefinedReplicates };
}
