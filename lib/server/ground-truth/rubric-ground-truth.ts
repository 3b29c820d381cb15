import 'server-only';
import { getDb, type Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import { goldItemIds } from '@/db/queries/gold';
import * as rq from '@/db/queries/rubric-review';
import type { StudyRow } from '@/db/queries/studies';
import type { RubricDimension } from '@/lib/validation/rubric';
import type { Actor } from '../actor';
import { staffStudyOfKind } from '../review/access';
import type { GroundTruthSummaryDto, RubricGroundTruthSummaryDto } from './dto';
import type { GroundTruthExport } from './export-file';
import { fitPacked, posteriorColumn } from './model-gold';
import { rubricReviewerCodes } from './rubric-codes';
import {
  ASK_RULING,
  MODEL,
  NO_RULING,
  NO_VOTES,
  UNKNOWN_RULING,
  decide,
  isModelRule,
  outcomeLabel,
  outcomeProvenance,
  type Provenance,
} from './rule';

/** One dimension of one item of a rubric study, settled by the ground-truth rule. Labels by name. */
export type RubricGroundTruthRow = {
  item: string;
  itemId: number;
  group: string | null;
  /** Who wrote the reply (the study's lead sees it; reviewers never do). */
  source: string | null;
  dimension: string;
  label: string;
  /** The label after the dimension's lenient folding (the same label where the dimension has none). */
  lenient: string;
  provenance: Provenance;
  /** Under a model rule (dawid_skene, mace), the model's posterior probability of `label`; null otherwise. */
  posterior: number | null;
  /** Each reviewer's label by slot (Reviewer 1 first); null where a reviewer gave none. */
  reviewers: (string | null)[];
  adjudicator: string | null;
  rationale: string | null;
};

type Ruling = { label: number; rationale: string | null; adjudicator: string };

/** The lenient name of each label code of a dimension (the label itself where the dimension folds nothing). */
export const lenientNames = (d: RubricDimension): string[] => d.labels.map((l) => d.lenient?.[l] ?? l);

/** Groups the study's label stream (ordered by item) into one item at a time, codes by dimension × slot. */
function* itemsOf(rows: Iterable<rq.RubricLabelStreamRow>, dimensions: number) {
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
 * dimension decided by the one ground-truth rule (`decide`, with the dimension's label-set size). An item some
 * reviewer has not submitted yet, or with a dimension still open, is left out whole; `onIncomplete` is told of it.
 */
export function* rubricGroundTruth(db: Db, study: StudyRow, onIncomplete?: (externalId: string) => void): Generator<RubricGroundTruthRow> {
  const catalog = (study.criteria ?? []) as RubricDimension[];
  const lenient = catalog.map(lenientNames);
  const rulings = new Map<string, Ruling>();
  for (const r of rq.studyRubricRulings(db, study.id)) rulings.set(`${r.itemId}:${r.dimension}`, r);
  const minSlots = study.reviewersPerItem;
  const rule = study.groundTruthRule;
  // A model rule: fitted once on every dimension from the packs, as the dashboards' `decideGold` does (./model-gold.ts).
  const packed = isModelRule(rule) ? rubricReviewerCodes(db, study) : null;
  const model = packed && isModelRule(rule) ? fitPacked(rule, packed, packed.D, (d) => catalog[d].labels.length) : null;
  // Gold items are checks on the reviewers, not data: neither ground truth nor waiting for it (docs/decisions/0030).
  const gold = new Set(goldItemIds(db, study.id));
  let votes = new Int8Array(64);
  items: for (const { row, slots, codes } of itemsOf(rq.iterateRubricLabels(db, study.id), catalog.length)) {
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
      let outcome = decide(votes, 0, slots.length, UNKNOWN_RULING, rule, d.labels.length);
      const ruling = outcome === ASK_RULING ? rulings.get(`${row.itemId}:${k}`) : undefined;
      if (outcome === ASK_RULING) outcome = decide(votes, 0, slots.length, ruling ? ruling.label : NO_RULING, rule, d.labels.length);
      if (outcome === NO_VOTES) continue;
      const at = outcome === MODEL && packed && model ? k * packed.n + packed.items.of(row.itemId) : -1;
      const label = at >= 0 ? model!.label[at] : outcomeLabel(outcome);
      const provenance = at >= 0 ? (rule as Provenance) : outcomeProvenance(outcome);
      if (!provenance || label < 0) {
        onIncomplete?.(row.externalId);
        continue items;
      }
      const reviewers: (string | null)[] = Array<string | null>(Math.max(minSlots, slots.length)).fill(null);
      slots.forEach((_, i) => (reviewers[i] = votes[i] >= 0 ? d.labels[votes[i]] : null));
      const adjudicated = provenance === 'adjudicated' ? ruling! : null;
      out.push({
        item: row.externalId,
        itemId: row.itemId,
        group: row.groupKey,
        source: row.source,
        dimension: d.id,
        label: d.labels[label],
        lenient: lenient[k][label],
        provenance,
        posterior: at >= 0 ? model!.posterior[at] : null,
        reviewers,
        adjudicator: adjudicated?.adjudicator ?? null,
        rationale: adjudicated?.rationale ?? null,
      });
    }
    yield* out;
  }
}

/** How many items are complete, how many labels the ground truth has and how many were adjudicated. */
export function summarizeRubric(db: Db, study: StudyRow): RubricGroundTruthSummaryDto {
  let items = 0;
  let incomplete = 0;
  let labels = 0;
  let adjudicated = 0;
  const seen = new Set<number>();
  for (const r of rubricGroundTruth(db, study, () => incomplete++)) {
    labels++;
    if (r.provenance === 'adjudicated') adjudicated++;
    seen.add(r.itemId);
  }
  items = seen.size + incomplete;
  return { items, complete: seen.size, incomplete, labels, adjudicated, rule: study.groundTruthRule };
}

/** A rubric study's part of the ground-truth export (`exportGroundTruth`): one row per item and dimension. */
export function rubricGroundTruthExport(db: Db, study: StudyRow): GroundTruthExport<RubricGroundTruthRow, GroundTruthSummaryDto> {
  const slots = Math.max(study.reviewersPerItem, assignmentsQ.highestSlotOfStudy(db, study.id));
  const modelled = isModelRule(study.groundTruthRule);
  return {
    summary: summarizeRubric(db, study),
    rows: (snapshot) => rubricGroundTruth(snapshot, study),
    out: {
      header: [
        'item',
        'group',
        'source',
        'dimension',
        'label',
        'lenient_label',
        'provenance',
        ...posteriorColumn(modelled),
        ...Array.from({ length: slots }, (_, i) => `reviewer${i + 1}_label`),
        'adjudicator',
        'rationale',
      ],
      csv: (r) => [
        r.item,
        r.group ?? '',
        r.source ?? '',
        r.dimension,
        r.label,
        r.lenient,
        r.provenance,
        ...(modelled ? [r.posterior ?? ''] : []),
        ...r.reviewers.map((l) => l ?? ''),
        r.adjudicator ?? '',
        r.rationale ?? '',
      ],
      json: (r) => ({
        item: r.item,
        group: r.group,
        source: r.source,
        dimension: r.dimension,
        label: r.label,
        lenient_label: r.lenient,
        provenance: r.provenance,
        ...(modelled ? { posterior: r.posterior } : {}),
        reviewers: r.reviewers,
        adjudicator: r.adjudicator,
        rationale: r.rationale,
      }),
    },
  };
}

/** The ground-truth summary of a rubric study, for its leads. */
export function rubricGroundTruthSummary(actor: Actor, studyId: number): RubricGroundTruthSummaryDto {
  const db = getDb();
  const study = staffStudyOfKind(db, actor, studyId, 'rubric', 'This summary');
  return summarizeRubric(db, study);
}
