import 'server-only';
import { getDb, type Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import { goldItemIds } from '@/db/queries/gold';
import * as gtq from '@/db/queries/ground-truth';
import * as rq from '@/db/queries/rubric-review';
import type { StudyRow } from '@/db/queries/studies';
import { OVERALL } from '@/lib/validation/common';
import { LABELS, type Label } from '@/lib/validation/labels';
import type { Criterion } from '@/lib/validation/pairwise';
import type { RubricDimension } from '@/lib/validation/rubric';
import { studyKind } from '@/lib/kinds/registry';
import { kindName } from '@/lib/kinds/names';
import { lenientNames } from '@/lib/kinds/rubric/catalog';
import type { StudyKind } from '@/lib/validation/labels';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { audit } from '../accounts/audit';
import { invalid } from '../errors';
import { codeMap, groundTruthCodes, reviewerCodes, type GroundTruthCodes, type ReviewerCodes } from './ground-truth-codes';
import { ItemIndex } from '../packs/item-index';
import type { GroundTruthRow, GroundTruthSummaryDto, Provenance, RubricGroundTruthRow, SettledLabelDto } from './dto';
import { groundTruthFile } from './export-file';
import { fitPacked, fitUnit, posteriorColumn, type UnitFit } from './model-gold';
import { rubricReviewerCodes } from './rubric-codes';
import { ASK_RULING, MODEL, NO_RULING, NO_VOTES, UNKNOWN_RULING, decide, isModelRule, outcomeLabel, outcomeProvenance } from './rule';

export { codeMap, groundTruthCodes, reviewerCodes, type GroundTruthCodes, type ReviewerCodes };

export type { GroundTruthRow, Provenance, RubricGroundTruthRow };

/*
 * The ground truth of a study as rows (item × criterion, or item × dimension), read its kind's way, each unit settled
 * by the one rule here (`settle`), and its export, whose shared columns are written here and whose leading columns
 * are the kind's (`studyKind(kind).groundTruth`, lib/kinds/<kind>/ground-truth.ts).
 */

/** A ruling with its label as a code in the unit's label set. */
type RulingCode = { label: number; rationale: string | null; adjudicator: string };

/**
 * One unit of one item settled by the study's rule: the reviewers' codes `votes[offset … offset + count)`, the
 * newest ruling (read only where the rule asks for one) and, under a model rule, the model's label for the unit.
 * Undefined: nobody voted on it (no row); null: it is open (the item is left out of the ground truth).
 */
function settle(
  votes: Int8Array,
  offset: number,
  count: number,
  rule: StudyRow['groundTruthRule'],
  labelCount: number,
  rulingOf: () => RulingCode | undefined,
  modelOf: () => { label: number; posterior: number } | null,
): (Omit<SettledLabelDto, 'reviewers'> & { code: number }) | null | undefined {
  let outcome = decide(votes, offset, count, UNKNOWN_RULING, rule, labelCount);
  const ruling = outcome === ASK_RULING ? rulingOf() : undefined;
  if (outcome === ASK_RULING) outcome = decide(votes, offset, count, ruling ? ruling.label : NO_RULING, rule, labelCount);
  if (outcome === NO_VOTES) return undefined;
  const modelled = outcome === MODEL ? modelOf() : null;
  const code = modelled ? modelled.label : outcomeLabel(outcome);
  const provenance = modelled ? (rule as Provenance) : outcomeProvenance(outcome);
  if (!provenance || code < 0) return null;
  const adjudicated = provenance === 'adjudicated' ? ruling! : null;
  return {
    code,
    provenance,
    posterior: modelled ? modelled.posterior : null,
    adjudicator: adjudicated?.adjudicator ?? null,
    rationale: adjudicated?.rationale ?? null,
  };
}

/** The reviewers' labels by name, `width` slots wide (at least the planned reviewers); null where one gave none. */
function reviewerNames<L extends string>(votes: Int8Array, offset: number, width: number, minSlots: number, names: readonly L[]) {
  const reviewers = Array<L | null>(Math.max(minSlots, width)).fill(null);
  for (let s = 0; s < width; s++) if (votes[offset + s] >= 0) reviewers[s] = names[votes[offset + s]];
  return reviewers;
}

type Ruling = { label: Label; rationale: string | null; adjudicator: string };

/** The newest ruling on each item and criterion of a study, by `itemId:criterion`. */
export function rulings(db: Db, studyId: number): Map<string, Ruling> {
  const map = new Map<string, Ruling>();
  for (const r of gtq.latestRulings(db, studyId)) map.set(`${r.itemId}:${r.criterion}`, r);
  return map;
}

/** The order criteria are listed in: the study's catalog, then overall; others after them, by name. */
export function criterionOrder(study: StudyRow) {
  const order = new Map(((study.criteria ?? []) as Criterion[]).map((c, i) => [c.id, i]));
  order.set(OVERALL, order.size);
  return order;
}

/**
 * Ground truth of a study, item by item in position order; `onIncomplete` is told of each item left out.
 * The reviewers' labels are read once as codes (`reviewerCodes`, about a byte per label) and each criterion is
 * decided by the ground-truth rule (`./rule`); test/ground-truth-reference.ts reads the same rows label by label.
 */
export function* groundTruth(db: Db, study: StudyRow, onIncomplete?: (externalId: string) => void): Generator<GroundTruthRow> {
  const order = criterionOrder(study);
  // Known criteria in their sort order (catalog, then overall); others after them, by name.
  const known = [...order.keys()].sort((a, b) => order.get(a)! - order.get(b)! || a.localeCompare(b));
  const itemRows = gtq.itemIdsInOrder(db, study.id);
  const itemIds = itemRows.map((r) => r[0]);
  const externalIds = itemRows.map((r) => r[1]);
  const read = reviewerCodes(db, study, known, new ItemIndex(itemIds));
  const { n, slots: S, given, hasLabels, pending, other } = read;
  const rulingOf = rulings(db, study.id);
  const rule = study.groundTruthRule;
  const C = known.length;
  const minSlots = study.reviewersPerItem;
  // A model rule: fitted once on every criterion here, as `decideGold` does for the dashboards (./model-gold.ts).
  const model = isModelRule(rule) ? fitPacked(rule, read, C, () => LABELS.length) : null;
  const otherModels = new Map<string, UnitFit>();
  const otherModel = (name: string): UnitFit => {
    let fit = otherModels.get(name);
    if (!fit) {
      fit = fitUnit(
        rule as 'dawid_skene' | 'mace',
        LABELS.length,
        n,
        (i, vote) => {
          const codes = other.get(i)?.get(name);
          if (codes) for (let s = 0; s < S; s++) if (codes[s] >= 0) vote(read.holder[i * S + s], codes[s]);
        },
        (i) => !pending[i] && hasLabels[i] === 1,
      );
      otherModels.set(name, fit);
    }
    return fit;
  };
  items: for (let i = 0; i < n; i++) {
    if (pending[i] || !hasLabels[i]) {
      onIncomplete?.(externalIds[i]);
      continue;
    }
    const out: GroundTruthRow[] = [];
    /** Adds the row of one criterion; false when the criterion is open (the item is then left out). */
    const resolveOne = (criterion: string, codes: Int8Array, offset: number, fit: () => UnitFit, at: number): boolean => {
      const settled = settle(
        codes,
        offset,
        S,
        rule,
        LABELS.length,
        // The rulings are looked up by name, so only where the rule asks for one.
        () => {
          const ruling = rulingOf.get(`${itemIds[i]}:${criterion}`);
          return ruling && { ...ruling, label: LABELS.indexOf(ruling.label) };
        },
        () => {
          const model = fit();
          return { label: model.label[at], posterior: model.posterior[at] };
        },
      );
      if (settled === undefined) return true;
      if (settled === null) return false;
      let top = 0;
      for (let s = 0; s < S; s++) if (codes[offset + s] >= 0) top = s + 1;
      out.push({
        item: externalIds[i],
        itemId: itemIds[i],
        criterion,
        reviewers: reviewerNames(codes, offset, top, minSlots, LABELS),
        label: LABELS[settled.code],
        provenance: settled.provenance,
        posterior: settled.posterior,
        adjudicator: settled.adjudicator,
        rationale: settled.rationale,
      });
      return true;
    };
    for (let c = 0; c < C; c++) {
      if (!resolveOne(known[c], given, (c * n + i) * S, () => model!, c * n + i)) {
        onIncomplete?.(externalIds[i]);
        continue items;
      }
    }
    const extra = other.get(i);
    if (extra) {
      for (const name of [...extra.keys()].sort((a, b) => a.localeCompare(b))) {
        if (!resolveOne(name, extra.get(name)!, 0, () => otherModel(name), i)) {
          onIncomplete?.(externalIds[i]);
          continue items;
        }
      }
    }
    yield* out;
  }
}

/** Groups a rubric study's label stream (ordered by item) into one item at a time, codes by dimension × slot. */
function* rubricItemsOf(rows: Iterable<rq.RubricLabelStreamRow>, dimensions: number) {
  type Item = { row: rq.RubricLabelStreamRow; slots: number[]; codes: Map<number, number>[] };
  let current: Item | null = null;
  for (const r of rows) {
    if (!current || current.row.itemId !== r.itemId) {
      if (current) yield current;
      current = { row: r, slots: [], codes: Array.from({ length: dimensions }, () => new Map<number, number>()) };
    }
    if (r.slot === null || r.dimension === null || r.label === null || r.dimension >= dimensions) continue;
    if (!current.slots.includes(r.slot)) current.slots.push(r.slot);
    current.codes[r.dimension].set(r.slot, r.label);
  }
  if (current) yield current;
}

/**
 * Ground truth of a rubric study, item by item in position order and dimension by dimension in catalog order; every
 * dimension settled by the one rule (`settle`, with the dimension's label-set size). A reviewer column is a slot that
 * labelled the item, in slot order. An item some reviewer has not submitted yet, or with a dimension still open, is
 * left out whole; `onIncomplete` is told of it.
 */
export function* rubricGroundTruth(db: Db, study: StudyRow, onIncomplete?: (externalId: string) => void): Generator<RubricGroundTruthRow> {
  const catalog = (study.criteria ?? []) as RubricDimension[];
  const lenient = catalog.map(lenientNames);
  const rulings = new Map<string, RulingCode>();
  for (const r of rq.studyRubricRulings(db, study.id)) rulings.set(`${r.itemId}:${r.dimension}`, r);
  const minSlots = study.reviewersPerItem;
  const rule = study.groundTruthRule;
  // A model rule: fitted once on every dimension from the packs, as the dashboards' `decideGold` does (./model-gold.ts).
  const packed = isModelRule(rule) ? rubricReviewerCodes(db, study) : null;
  const model = packed && isModelRule(rule) ? fitPacked(rule, packed, packed.D, (d) => catalog[d].labels.length) : null;
  // Gold items are checks on the reviewers, not data: neither ground truth nor waiting for it (docs/decisions/0030).
  const gold = new Set(goldItemIds(db, study.id));
  let votes = new Int8Array(64);
  items: for (const { row, slots, codes } of rubricItemsOf(rq.iterateRubricLabels(db, study.id), catalog.length)) {
    if (gold.has(row.itemId)) continue;
    if (row.pending > 0 || slots.length === 0) {
      onIncomplete?.(row.externalId);
      continue;
    }
    slots.sort((a, b) => a - b);
    // Imported crowd labels bring any number of raters (decision 0028): a typed array silently drops writes past its end.
    if (votes.length < slots.length) votes = new Int8Array(slots.length * 2);
    const out: RubricGroundTruthRow[] = [];
    for (let k = 0; k < catalog.length; k++) {
      const d = catalog[k];
      slots.forEach((s, i) => (votes[i] = codes[k].get(s) ?? -1));
      const settled = settle(
        votes,
        0,
        slots.length,
        rule,
        d.labels.length,
        () => rulings.get(`${row.itemId}:${k}`),
        () => {
          const at = packed && model ? k * packed.n + packed.items.of(row.itemId) : -1;
          return at >= 0 ? { label: model!.label[at], posterior: model!.posterior[at] } : null;
        },
      );
      if (settled === undefined) continue;
      if (settled === null) {
        onIncomplete?.(row.externalId);
        continue items;
      }
      out.push({
        item: row.externalId,
        itemId: row.itemId,
        group: row.groupKey,
        source: row.source,
        dimension: d.id,
        label: d.labels[settled.code],
        lenient: lenient[k][settled.code],
        provenance: settled.provenance,
        posterior: settled.posterior,
        reviewers: reviewerNames(votes, 0, slots.length, minSlots, d.labels),
        adjudicator: settled.adjudicator,
        rationale: settled.rationale,
      });
    }
    yield* out;
  }
}

/** How many items are complete and how many labels the ground truth has, from `groundTruthCodes` (no row objects). */
export function summarize(db: Db, study: StudyRow): GroundTruthSummaryDto {
  const codes = groundTruthCodes(db, study, [...criterionOrder(study).keys()]);
  return {
    items: codes.n,
    complete: codes.n - codes.incompleteItems,
    incomplete: codes.incompleteItems,
    labels: codes.allLabels,
    adjudicated: codes.adjudicated,
    rule: study.groundTruthRule,
  };
}

/** The same summary of a rubric study, counted from its rows. */
function summarizeRubric(db: Db, study: StudyRow): GroundTruthSummaryDto {
  let incomplete = 0;
  let labels = 0;
  let adjudicated = 0;
  const seen = new Set<number>();
  for (const r of rubricGroundTruth(db, study, () => incomplete++)) {
    labels++;
    if (r.provenance === 'adjudicated') adjudicated++;
    seen.add(r.itemId);
  }
  return { items: seen.size + incomplete, complete: seen.size, incomplete, labels, adjudicated, rule: study.groundTruthRule };
}

/**
 * How each kind's ground truth is read: its rows and its summary. Server-side, so it cannot live in lib/kinds (the
 * readers call the rule and the label models); a kind without ground truth has none, as it has no facet.
 */
const READERS: Record<
  StudyKind,
  { rows: (db: Db, study: StudyRow) => Iterable<SettledLabelDto & object>; summary: typeof summarize } | null
> = {
  flow_review: null,
  pairwise: { rows: (db, study) => groundTruth(db, study), summary: summarize },
  rubric: { rows: (db, study) => rubricGroundTruth(db, study), summary: summarizeRubric },
};

/** The study's kind's reader and export columns, or the one refusal for a kind without ground truth. */
function kindPart(study: StudyRow, what: string) {
  const reader = READERS[study.kind];
  const facet = studyKind(study.kind).groundTruth;
  if (!reader || !facet) throw invalid(`A ${kindName(study.kind).toLowerCase()} study has no ground truth${what}.`);
  return { ...reader, columns: facet.columns };
}

/** How many reviewer columns an export has: the plan, or more where imported prior raters go beyond it. */
export const reviewerColumns = (db: Db, study: StudyRow) => Math.max(study.reviewersPerItem, assignmentsQ.highestSlotOfStudy(db, study.id));

/** The ground-truth export: JSONL or CSV lines, streamed from a snapshot; incomplete items are left out and counted. */
export function exportGroundTruth(actor: Actor, studyId: number, format: string) {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const { rows, summary, columns } = kindPart(study, ' to export; export its flows instead');
  if (format !== 'jsonl' && format !== 'csv') throw invalid(`Unknown format "${format}"; use jsonl or csv.`);
  const slots = reviewerColumns(db, study);
  const modelled = isModelRule(study.groundTruthRule);
  const file = groundTruthFile(study, format, summary(db, study), (snapshot) => rows(snapshot, study), {
    header: [
      ...columns.map((c) => c.csv),
      'provenance',
      ...posteriorColumn(modelled),
      ...Array.from({ length: slots }, (_, i) => `reviewer${i + 1}_label`),
      'adjudicator',
      'rationale',
    ],
    csv: (r) => [
      ...columns.map((c) => c.value(r) ?? ''),
      r.provenance,
      ...(modelled ? [r.posterior ?? ''] : []),
      ...r.reviewers.map((l) => l ?? ''),
      r.adjudicator ?? '',
      r.rationale ?? '',
    ],
    json: (r) => ({
      ...Object.fromEntries(columns.map((c) => [c.json, c.value(r)])),
      provenance: r.provenance,
      ...(modelled ? { posterior: r.posterior } : {}),
      reviewers: r.reviewers,
      adjudicator: r.adjudicator,
      rationale: r.rationale,
    }),
  });
  audit(db, { userId: actor.id, action: 'export', studyId, detail: { what: 'ground-truth', format } });
  return file;
}

/** The ground-truth summary of a study, for its leads (the study page's overview). */
export function groundTruthSummary(actor: Actor, studyId: number): GroundTruthSummaryDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  return kindPart(study, '').summary(db, study);
}
