import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import { ALL_KINDS } from '@/lib/kinds/registry';
import { type Stat, contingencyTable } from '@/lib/stats';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { staffStudyOfKind } from '../review/access';
import { ALIGNMENT_BY_KIND } from './alignment-by-kind';
import {
  ResampledRows,
  bootstrapEstimates,
  bootstrapInfo,
  bootstrapSeed,
  drawCounts,
  judgeNameSchema,
  judgeRunNamed,
  replicatesSchema,
} from './data';
import type { BootstrapInfoDto, IntervalDto, ReportDtos } from './dto';

/*
 * A judge run against the ground truth, for every kind of study: the labels split into groups (everything, each
 * catalog entry, and the groups the kind adds — principles and models, tutors and tutor × dimension), the
 * bootstrap of each group's coefficients, and each group's summary. What the kind's data looks like, which groups
 * it has and how its summaries and DTO read is its part (`alignment-by-kind.ts`); everything here is the same for
 * every kind.
 */

/** The (item, ground truth, judge) rows of one group of labels. */
export type AlignmentGroup = { items: Int32Array; gold: Int8Array; judge: Int8Array };

/**
 * One family of groups beside "everything" and "each entry": a label of entry `e` on item `i` falls in the
 * family's group `item[i] · entrySize + entry[e]` (a part left out counts 0; a key of −1 puts the label in no
 * group of the family). A family keyed by the item is per model or tutor, by the entry per principle, by both per
 * tutor × dimension.
 */
export type GroupFamily = { size: number; entry?: Int32Array; entrySize?: number; item?: Int32Array };

/**
 * A kind's labels in the core's shape: `entries` catalog entries (criteria, dimensions) over `n` items, each label
 * the code of its entry's label set (−1 none) at `e · n + i`.
 */
export type AlignmentLabels = { n: number; entries: number; gold: Int8Array; verdict: Int8Array };

/**
 * One way of scoring the labels: the label set of each entry (null leaves the entry out) and, to fold the codes
 * first (a rubric dimension's lenient map), the map of each entry.
 */
export type Scoring = { labels: readonly (readonly string[] | null)[]; fold?: readonly (Int8Array | null)[] };

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, k) => x === b[k]);

/**
 * Splits the labels with both ground truth and a verdict into groups, in two passes over typed arrays (count, then
 * fill) so that no per-label object is made: group 0 is everything, 1 + e is entry e, then each family in order.
 * Also counts each entry's ground-truth labels without a verdict, and names each group's label set: its entries'
 * common one, or null where entries with different sets are pooled.
 */
export function alignmentGroups(data: AlignmentLabels, families: readonly GroupFamily[], scoring: Scoring) {
  const { n, entries: E, gold, verdict } = data;
  const offsets: number[] = [];
  let G = 1 + E;
  for (const f of families) {
    offsets.push(G);
    G += f.size;
  }
  const used = (e: number) => scoring.labels[e] !== null;
  const familyGroup = (f: GroupFamily, base: number, e: number, i: number) => {
    const ek = f.entry ? f.entry[e] : 0;
    const ik = f.item ? f.item[i] : 0;
    return ek < 0 || ik < 0 ? -1 : base + ik * (f.entry ? (f.entrySize ?? 1) : 1) + ek;
  };
  const sizes = new Int32Array(G);
  const unjudged = new Int32Array(E);
  for (let e = 0; e < E; e++) {
    if (!used(e)) continue;
    for (let i = 0; i < n; i++) {
      if (gold[e * n + i] < 0) continue;
      if (verdict[e * n + i] < 0) {
        unjudged[e]++;
        continue;
      }
      sizes[0]++;
      sizes[1 + e]++;
      families.forEach((f, k) => {
        const g = familyGroup(f, offsets[k], e, i);
        if (g >= 0) sizes[g]++;
      });
    }
  }
  const groups: AlignmentGroup[] = Array.from(sizes, (m) => ({
    items: new Int32Array(m),
    gold: new Int8Array(m),
    judge: new Int8Array(m),
  }));
  const fill = new Int32Array(G);
  const put = (k: number, i: number, g: number, v: number) => {
    const r = fill[k]++;
    const group = groups[k];
    group.items[r] = i;
    group.gold[r] = g;
    group.judge[r] = v;
  };
  for (let e = 0; e < E; e++) {
    if (!used(e)) continue;
    const map = scoring.fold?.[e] ?? null;
    for (let i = 0; i < n; i++) {
      let g = gold[e * n + i];
      let v = verdict[e * n + i];
      if (g < 0 || v < 0) continue;
      if (map) {
        g = map[g];
        v = map[v];
      }
      put(0, i, g, v);
      put(1 + e, i, g, v);
      families.forEach((f, k) => {
        const at = familyGroup(f, offsets[k], e, i);
        if (at >= 0) put(at, i, g, v);
      });
    }
  }

  // The entries that can feed each group, whether or not a label landed there, decide its label set.
  const common = (list: number[]): string[] | null => {
    const sets = list.map((e) => scoring.labels[e]).filter((l): l is readonly string[] => l !== null);
    return sets.length > 0 && sets.every((l) => sameList(l, sets[0])) ? [...sets[0]] : null;
  };
  const all = Array.from({ length: E }, (_, e) => e);
  const labels: (string[] | null)[] = [common(all), ...all.map((e) => common([e]))];
  for (const f of families) {
    const width = f.entry ? (f.entrySize ?? 1) : 1;
    for (let j = 0; j < f.size; j++) labels.push(f.entry ? common(all.filter((e) => f.entry![e] === j % width)) : common(all));
  }
  return { groups, unjudged, labels };
}

export type ScoredGroups = ReturnType<typeof alignmentGroups>;

/**
 * What a kind gives the core: its labels, the group families and scorings, the coefficients to bootstrap per
 * group and how a group's summary reads, and then its DTO from the summaries.
 */
export type AlignmentKindPart<O, L, S, D> = {
  /** The kind's own options beside the judge and the bootstrap (a rubric run's sample). */
  options: z.ZodRawShape;
  /** The study's labels of this run, and the item id of each item index: read after the study, the options and the run are checked. */
  load: (
    db: ReturnType<typeof getDb>,
    study: ReportStudy,
    run: ReportRun,
    o: O,
  ) => L & { labels: AlignmentLabels; itemIds: readonly number[] };
  /** The families of groups after "everything" and "each entry". */
  families: (l: L) => GroupFamily[];
  /** The scorings, the first being the plain one: strict, and lenient where the kind folds labels. */
  scorings: (l: L) => Scoring[];
  /** The coefficients bootstrapped per group, from its contingency table. */
  coefficients: Record<string, (table: number[][]) => Stat>;
  /** The bootstrap's purpose, which seeds it. */
  seedPurpose: (run: ReportRun, o: O) => string;
  /** The summary of one group: its rows, its label set (null when pooled over different sets), its bootstrap intervals. */
  summary: (group: AlignmentGroup, labels: string[] | null, intervals: Record<string, IntervalDto> | null) => S;
  report: (a: {
    db: ReturnType<typeof getDb>;
    study: ReportStudy;
    run: ReportRun;
    options: O;
    loaded: L;
    bootstrap: BootstrapInfoDto;
    /** The groups of each scoring, and the summary of group k of scoring s. */
    scored: ScoredGroups[];
    summary: (s: number, k: number) => S;
  }) => D;
};

/** The labels with the ground truth of the items in `leftOut` (ids) taken away, so that no group counts them. */
function withoutItems(labels: AlignmentLabels, itemIds: readonly number[], leftOut: ReadonlySet<number>): AlignmentLabels {
  const { n, entries } = labels;
  const gold = labels.gold.slice();
  for (let i = 0; i < n; i++) if (leftOut.has(itemIds[i])) for (let e = 0; e < entries; e++) gold[e * n + i] = -1;
  return { ...labels, gold };
}

export type ReportStudy = ReturnType<typeof staffStudyOfKind>;
export type ReportRun = ReturnType<typeof judgeRunNamed>;
export type AlignmentReportName = 'alignment' | 'rubric-alignment';

const baseOptions = z.object({ judge: judgeNameSchema, bootstrap: replicatesSchema });

/**
 * How well one judge run matches ground truth (under the study's rule): the alignment statistics of the kind
 * (pairwise: alignment rate with and without ties, Cohen's κ and its weighted forms, the judge beside each
 * annotator and position consistency; rubric: accuracy, macro-F1, class-wise accuracy and recall, strict and
 * lenient) overall, per catalog entry and per group the kind adds, with bootstrap intervals for the coefficients.
 * `report` is the registered report the study's kind serves alignment with; another kind of study is refused.
 * `leftOut` (item ids) leaves those items' labels out of every summary of the judge against the ground truth (and the
 * unjudged counts) — the
 * judge comparison scores runs without the worked examples a template showed (decision 0033) — while the counts of
 * the ground truth, the judge beside the annotators and position consistency still read every item.
 * Leads and admins only.
 */
export function alignmentReport<R extends AlignmentReportName>(
  actor: Actor,
  studyId: number,
  report: R,
  opts: { judge: string; bootstrap?: number | string; sample?: number | string },
  leftOut?: ReadonlySet<number>,
): ReportDtos[R] {
  const db = getDb();
  const kind = ALL_KINDS.find((k) => k.reports.byRole.alignment === report);
  const part = kind && ALIGNMENT_BY_KIND[kind.id];
  if (!kind || !part) throw new Error(`no kind serves alignment with the report ${report}`);
  const study = staffStudyOfKind(db, actor, studyId, kind.id, 'This report');
  const o = parseInput(baseOptions.extend(part.options), opts) as z.infer<typeof baseOptions> & Record<string, unknown>;
  const run = judgeRunNamed(db, studyId, o.judge);
  const loaded = part.load(db, study, run, o);
  const families = part.families(loaded);
  const labels = leftOut?.size ? withoutItems(loaded.labels, loaded.itemIds, leftOut) : loaded.labels;
  const scored = part.scorings(loaded).map((s) => alignmentGroups(labels, families, s));

  const seed = bootstrapSeed(study.seed, part.seedPurpose(run, o));
  const w = new Int32Array(loaded.labels.n);
  const rows = new ResampledRows();
  const coefficients = Object.entries(part.coefficients);
  const est = bootstrapEstimates(
    loaded.labels.n,
    (drawn) => {
      const weights = drawCounts(drawn, w);
      const out: Record<string, Stat> = {};
      scored.forEach(({ groups, labels }, s) =>
        groups.forEach((g, k) => {
          const set = labels[k];
          if (!set) return;
          const table = contingencyTable(g.gold, g.judge, set.length, rows.of(g.items, weights));
          for (const [name, f] of coefficients) out[`${s}.${k}.${name}`] = f(table);
        }),
      );
      return out;
    },
    o.bootstrap,
    seed,
  );
  const summary = (s: number, k: number) => {
    const set = scored[s].labels[k];
    const intervals = set ? Object.fromEntries(coefficients.map(([name]) => [name, est[`${s}.${k}.${name}`].interval])) : null;
    return part.summary(scored[s].groups[k], set, intervals);
  };
  return part.report({ db, study, run, options: o, loaded, bootstrap: bootstrapInfo(o.bootstrap, seed), scored, summary }) as ReportDtos[R];
}
