import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import type { Frame, Gold } from '@/lib/server/analytics/data';
import type { GroundTruthSummaryDto } from '@/lib/server/ground-truth/dto';
import { criterionOrder, groundTruth, rulings, type GroundTruthRow } from '@/lib/server/ground-truth/ground-truth';
import { decideLabels } from '@/lib/server/ground-truth/rule';
import { LABELS, type Label } from '@/lib/validation/labels';

/*
 * Reference readings of a study's ground truth, label by label from the rows (one JavaScript object per label),
 * for the tests that check the packed readers against them. They apply the same rule (lib/server/ground-truth/rule.ts,
 * tested on its own), so what they check is the reading: which labels count, which items are complete, in what order.
 */

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

/** The rows of one item, or null when it is not complete (reviews pending, no labels, or a criterion open). */
function resolveItem(
  item: ItemLabels,
  rule: StudyRow['groundTruthRule'],
  rulingOf: ReturnType<typeof rulings>,
  order: Map<string, number>,
): GroundTruthRow[] | null {
  if (item.pending > 0 || item.labels.size === 0) return null;
  const out: GroundTruthRow[] = [];
  const criteria = [...item.labels.keys()].sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9) || a.localeCompare(b));
  for (const criterion of criteria) {
    const reviewers = item.labels.get(criterion)!;
    const ruling = rulingOf.get(`${item.itemId}:${criterion}`);
    const { label, provenance } = decideLabels(reviewers, ruling?.label ?? null, rule);
    if (!label || !provenance) return null;
    const byRuling = provenance === 'adjudicated';
    out.push({
      item: item.externalId,
      itemId: item.itemId,
      criterion,
      reviewers,
      label,
      provenance,
      // The row-by-row reading covers the per-item rules; the model rules are checked against lib/stats directly.
      posterior: null,
      adjudicator: byRuling ? ruling!.adjudicator : null,
      rationale: byRuling ? ruling!.rationale : null,
    });
  }
  return out;
}

/** Ground truth row by row from one SQL reading: the reference for `groundTruth`. */
export function* groundTruthRows(db: Db, study: StudyRow, onIncomplete?: (externalId: string) => void): Generator<GroundTruthRow> {
  const rulingOf = rulings(db, study.id);
  const order = criterionOrder(study);
  for (const item of itemsWithLabels(db, study.id, study.reviewersPerItem)) {
    const rows = resolveItem(item, study.groundTruthRule, rulingOf, order);
    if (rows) yield* rows;
    else onIncomplete?.(item.externalId);
  }
}

/** `summarize` counted from the `groundTruthRows` rows: the reference for the summary from codes. */
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

/** `groundTruth` row by row into the frame's code array: the reference for the dashboards' `loadGold`. */
export function loadGoldRows(db: Db, frame: Frame): Gold {
  const { n } = frame;
  const critIndex = new Map(frame.criterionIds.map((id, c) => [id, c]));
  const gold = new Int8Array(frame.criteria.length * n).fill(-1);
  let labels = 0;
  let incompleteItems = 0;
  for (const row of groundTruth(db, frame.study, () => incompleteItems++)) {
    const c = critIndex.get(row.criterion);
    const i = frame.items.of(row.itemId);
    // A label on a criterion no longer in the catalog cannot be placed in any per-criterion statistic.
    if (c === undefined || i < 0) continue;
    gold[c * n + i] = LABELS.indexOf(row.label);
    labels++;
  }
  return { gold, labels, incompleteItems };
}
