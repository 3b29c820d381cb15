import 'server-only';
import { getDb, openSnapshot, type Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import { csvHeader, csvLines } from '@/lib/io/csv';
import { jsonlLine } from '@/lib/io/jsonl-out';
import { OVERALL } from '@/lib/validation/common';
import type { Label } from '@/lib/validation/labels';
import type { Criterion } from '@/lib/validation/pairwise';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { audit } from '../accounts/audit';
import { majorityLabel } from '../review/disputes';
import { invalid } from '../errors';
import { codeMap, groundTruthCodes, reviewerCodes, type GroundTruthCodes, type ReviewerCodes } from './ground-truth-codes';
import { ItemIndex } from '../packs/item-index';
import type { GroundTruthSummaryDto } from './dto';

export { codeMap, groundTruthCodes, reviewerCodes, type GroundTruthCodes, type ReviewerCodes };

export type Provenance = 'agreed' | 'majority' | 'adjudicated';

export type GroundTruthRow = {
  item: string;
  itemId: number;
  criterion: string;
  label: Label;
  provenance: Provenance;
  /** Each reviewer's label by slot (Reviewer 1 first); null where a reviewer gave none. */
  reviewers: (Label | null)[];
  adjudicator: string | null;
  rationale: string | null;
};

type Ruling = { label: Label; rationale: string | null; adjudicator: string };

function rulings(db: Db, studyId: number) {
  const rows = db.$client
    .prepare(
      `SELECT j.item_id AS itemId, j.criterion, j.label, j.rationale, u.username AS adjudicator
         FROM adjudications j JOIN items i ON i.id = j.item_id JOIN users u ON u.id = j.adjudicator_id
        WHERE i.study_id = ? AND j.revision = (SELECT max(revision) FROM adjudications WHERE item_id = j.item_id AND criterion = j.criterion)`,
    )
    .all(studyId) as ({ itemId: number; criterion: string } & Ruling)[];
  const map = new Map<string, Ruling>();
  for (const r of rows) map.set(`${r.itemId}:${r.criterion}`, r);
  return map;
}

type ItemLabels = { itemId: number; externalId: string; pending: number; labels: Map<string, (Label | null)[]> };

/** Every item of a study with its reviewers' counting labels, one item at a time, in item order. */
function* itemsWithLabels(db: Db, studyId: number, slots: number): Generator<ItemLabels> {
  const rows = db.$client
    .prepare(
      `SELECT i.id AS itemId, i.external_id AS externalId,
              (SELECT count(*) FROM assignments p WHERE p.item_id = i.id AND p.state = 'pending') AS pending,
              a.slot, l.criterion, l.label
         FROM items i
         LEFT JOIN assignments a ON a.item_id = i.id AND a.state = 'submitted'
         LEFT JOIN annotations an ON an.assignment_id = a.id
          AND an.revision = (SELECT max(revision) FROM annotations WHERE assignment_id = a.id)
         LEFT JOIN labels l ON l.annotation_id = an.id
        WHERE i.study_id = ?
        ORDER BY i.position`,
    )
    .iterate(studyId) as IterableIterator<{
    itemId: number;
    externalId: string;
    pending: number;
    slot: number | null;
    criterion: string | null;
    label: Label | null;
  }>;
  let current: ItemLabels | null = null;
  for (const r of rows) {
    if (!current || current.itemId !== r.itemId) {
      if (current) yield current;
      current = { itemId: r.itemId, externalId: r.externalId, pending: r.pending, labels: new Map() };
    }
    if (r.criterion && r.slot) {
      const list = current.labels.get(r.criterion) ?? Array<Label | null>(slots).fill(null);
      list[r.slot - 1] = r.label;
      current.labels.set(r.criterion, list);
    }
  }
  if (current) yield current;
}

/**
 * Resolves one item: every criterion gets the agreed label, the majority label (majority rule), or the
 * adjudicated one. Returns null when the item is not complete yet (reviews pending or a disagreement open).
 */
function resolveItem(
  item: ItemLabels,
  rule: StudyRow['groundTruthRule'],
  rulingOf: Map<string, Ruling>,
  order: Map<string, number>,
): GroundTruthRow[] | null {
  if (item.pending > 0 || item.labels.size === 0) return null;
  const out: GroundTruthRow[] = [];
  const criteria = [...item.labels.keys()].sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9) || a.localeCompare(b));
  for (const criterion of criteria) {
    const reviewers = item.labels.get(criterion)!;
    const given = reviewers.filter((l): l is Label => l !== null);
    const unanimous = given.every((l) => l === given[0]);
    const base = { item: item.externalId, itemId: item.itemId, criterion, reviewers };
    if (unanimous) {
      out.push({ ...base, label: given[0], provenance: 'agreed', adjudicator: null, rationale: null });
      continue;
    }
    const ruling = rulingOf.get(`${item.itemId}:${criterion}`);
    if (ruling) {
      out.push({ ...base, label: ruling.label, provenance: 'adjudicated', adjudicator: ruling.adjudicator, rationale: ruling.rationale });
      continue;
    }
    const m = rule === 'majority' ? majorityLabel(reviewers) : null;
    if (!m) return null;
    out.push({ ...base, label: m, provenance: 'majority', adjudicator: null, rationale: null });
  }
  return out;
}

function criterionOrder(study: StudyRow) {
  const order = new Map(((study.criteria ?? []) as Criterion[]).map((c, i) => [c.id, i]));
  order.set(OVERALL, order.size);
  return order;
}

/**
 * Ground truth of a study, item by item in position order; `onIncomplete` is told of each item left out.
 * The reviewers' labels are read once as codes (`reviewerCodes`, about a byte per label) and the rows are made
 * from them; the rules and the rows are those of `groundTruthRows`, the plain row-by-row reading kept as the reference.
 */
export function* groundTruth(db: Db, study: StudyRow, onIncomplete?: (externalId: string) => void): Generator<GroundTruthRow> {
  const order = criterionOrder(study);
  // Known criteria in their sort order (catalog, then overall); others after them, by name, as resolveItem sorts.
  const known = [...order.keys()].sort((a, b) => order.get(a)! - order.get(b)! || a.localeCompare(b));
  const itemRows = db.$client.prepare('SELECT id, external_id FROM items WHERE study_id = ? ORDER BY position').raw().all(study.id) as [
    number,
    string,
  ][];
  const itemIds = itemRows.map((r) => r[0]);
  const externalIds = itemRows.map((r) => r[1]);
  const read = reviewerCodes(db, study, known, new ItemIndex(itemIds));
  const { n, slots: S, given, hasLabels, pending, other } = read;
  const rulingOf = rulings(db, study.id);
  const majority = study.groundTruthRule === 'majority';
  const C = known.length;
  const LABELS: readonly Label[] = ['lose', 'tie', 'win'];
  const counts = new Int32Array(3);
  const minSlots = study.reviewersPerItem;
  items: for (let i = 0; i < n; i++) {
    if (pending[i] || !hasLabels[i]) {
      onIncomplete?.(externalIds[i]);
      continue;
    }
    const out: GroundTruthRow[] = [];
    const resolveOne = (criterion: string, codes: Int8Array, offset: number): boolean => {
      counts.fill(0);
      let total = 0;
      let top = 0;
      for (let s = 0; s < S; s++) {
        const l = codes[offset + s];
        if (l >= 0) {
          counts[l]++;
          total++;
          top = s + 1;
        }
      }
      if (total === 0) return true;
      const reviewers: (Label | null)[] = Array<Label | null>(Math.max(minSlots, top)).fill(null);
      for (let s = 0; s < top; s++) if (codes[offset + s] >= 0) reviewers[s] = LABELS[codes[offset + s]];
      const item = externalIds[i];
      const itemId = itemIds[i];
      for (let q = 0; q < 3; q++) {
        if (counts[q] === total) {
          out.push({ item, itemId, criterion, reviewers, label: LABELS[q], provenance: 'agreed', adjudicator: null, rationale: null });
          return true;
        }
      }
      const ruling = rulingOf.get(`${itemId}:${criterion}`);
      if (ruling) {
        out.push({
          item,
          itemId,
          criterion,
          reviewers,
          label: ruling.label,
          provenance: 'adjudicated',
          adjudicator: ruling.adjudicator,
          rationale: ruling.rationale,
        });
        return true;
      }
      if (majority) {
        for (let q = 0; q < 3; q++) {
          if (counts[q] * 2 > total) {
            out.push({ item, itemId, criterion, reviewers, label: LABELS[q], provenance: 'majority', adjudicator: null, rationale: null });
            return true;
          }
        }
      }
      return false;
    };
    for (let c = 0; c < C; c++) {
      if (!resolveOne(known[c], given, (c * n + i) * S)) {
        onIncomplete?.(externalIds[i]);
        continue items;
      }
    }
    const extra = other.get(i);
    if (extra) {
      for (const name of [...extra.keys()].sort((a, b) => a.localeCompare(b))) {
        if (!resolveOne(name, extra.get(name)!, 0)) {
          onIncomplete?.(externalIds[i]);
          continue items;
        }
      }
    }
    yield* out;
  }
}

/** Ground truth row by row from one SQL reading (one JavaScript object per label): the reference for `groundTruth`. */
export function* groundTruthRows(db: Db, study: StudyRow, onIncomplete?: (externalId: string) => void): Generator<GroundTruthRow> {
  const rulingOf = rulings(db, study.id);
  const order = criterionOrder(study);
  for (const item of itemsWithLabels(db, study.id, study.reviewersPerItem)) {
    const rows = resolveItem(item, study.groundTruthRule, rulingOf, order);
    if (rows) yield* rows;
    else onIncomplete?.(item.externalId);
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

/** `summarize` counted from the `groundTruth` rows themselves (slower: one object per label); the reference in tests. */
export function summarizeRows(db: Db, study: StudyRow): GroundTruthSummaryDto {
  let incomplete = 0;
  let labels = 0;
  let adjudicated = 0;
  const complete = new Set<number>();
  for (const row of groundTruthRows(db, study, () => incomplete++)) {
    labels++;
    complete.add(row.itemId);
    if (row.provenance === 'adjudicated') adjudicated++;
  }
  return { items: complete.size + incomplete, complete: complete.size, incomplete, labels, adjudicated, rule: study.groundTruthRule };
}

const CSV_BATCH = 500;

/** The ground-truth export: JSONL or CSV lines, streamed from a snapshot; incomplete items are left out and counted. */
export function exportGroundTruth(actor: Actor, studyId: number, format: string) {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  if (study.kind !== 'pairwise') throw invalid('Only pairwise studies have ground truth.');
  if (format !== 'jsonl' && format !== 'csv') throw invalid(`Unknown format "${format}"; use jsonl or csv.`);
  const summary = summarize(db, study);
  audit(db, { userId: actor.id, action: 'export', studyId, detail: { what: 'ground-truth', format } });
  const slots = study.reviewersPerItem;
  function* lines(): Generator<string> {
    const snap = openSnapshot();
    try {
      if (format === 'csv') {
        yield csvHeader([
          'item',
          'criterion',
          'label',
          'provenance',
          ...Array.from({ length: slots }, (_, i) => `reviewer${i + 1}_label`),
          'adjudicator',
          'rationale',
        ]);
      }
      if (format === 'csv') {
        // Rows are written in batches (the csvLine rules), so the stream is fed a few large chunks.
        let batch: string[][] = [];
        for (const r of groundTruth(snap.db, study)) {
          const cells = [
            r.item,
            r.criterion,
            r.label,
            r.provenance,
            ...r.reviewers.map((l) => l ?? ''),
            r.adjudicator ?? '',
            r.rationale ?? '',
          ];
          batch.push(cells);
          if (batch.length === CSV_BATCH) {
            yield csvLines(batch);
            batch = [];
          }
        }
        if (batch.length) yield csvLines(batch);
      } else {
        for (const r of groundTruth(snap.db, study)) {
          yield jsonlLine({
            item: r.item,
            criterion: r.criterion,
            label: r.label,
            provenance: r.provenance,
            reviewers: r.reviewers,
            adjudicator: r.adjudicator,
            rationale: r.rationale,
          });
        }
      }
    } finally {
      snap.close();
    }
  }
  const safeName = study.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || 'study';
  return {
    lines: lines(),
    summary,
    filename: `${safeName}-ground-truth.${format}`,
    contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
  };
}
