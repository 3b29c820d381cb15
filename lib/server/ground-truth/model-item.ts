import 'server-only';
import type { Db } from '@/db/client';
import { itemIdsInOrder } from '@/db/queries/ground-truth';
import type { StudyRow } from '@/db/queries/studies';
import type { RubricDimension } from '@/lib/validation/rubric';
import { LABELS } from '@/lib/validation/labels';
import { ItemIndex } from '../packs/item-index';
import { criterionOrder } from './ground-truth';
import { reviewerCodes } from './ground-truth-codes';
import { fitPacked } from './model-gold';
import { rubricReviewerCodes } from './rubric-codes';
import { isModelRule, type ModelRule } from './rule';

/*
 * The label model's answer for one item (decision 0041), for the lead's item page: under `dawid_skene` or `mace` the
 * ground truth of an item is the whole study's fit, so the page asks for it here. The fit is the one the export and
 * the dashboards make — the same reads, the same input, so the same cached fit (./model-gold.ts) — and only this
 * item's labels and posteriors are kept. A unit the model did not fit (the item is not in the fit: a review pending,
 * no labels) is absent.
 */

/** The model's label of one unit of the item: the label's code in the unit's declared labels and its posterior. */
export type ItemModelLabel = { rule: ModelRule; code: number; posterior: number };

/** A pairwise item's model labels by criterion (the study's catalog and overall), or null under a per-item rule. */
export function pairwiseModelOfItem(db: Db, study: StudyRow, itemId: number): Map<string, ItemModelLabel> | null {
  const rule = study.groundTruthRule;
  if (!isModelRule(rule)) return null;
  // The criteria and items as `groundTruth` (the export) reads them, so the fit's input is the export's.
  const order = criterionOrder(study);
  const known = [...order.keys()].sort((a, b) => order.get(a)! - order.get(b)! || a.localeCompare(b));
  const read = reviewerCodes(db, study, known, new ItemIndex(itemIdsInOrder(db, study.id).map((r) => r[0])));
  return unitsOf(
    rule,
    read.items.of(itemId),
    read.n,
    fitPacked(rule, read, known.length, () => LABELS.length),
    known,
  );
}

/** A rubric item's model labels by dimension id, or null under a per-item rule. */
export function rubricModelOfItem(db: Db, study: StudyRow, itemId: number): Map<string, ItemModelLabel> | null {
  const rule = study.groundTruthRule;
  if (!isModelRule(rule)) return null;
  const catalog = (study.criteria ?? []) as RubricDimension[];
  const read = rubricReviewerCodes(db, study);
  const fit = fitPacked(rule, read, read.D, (d) => catalog[d].labels.length);
  return unitsOf(
    rule,
    read.items.of(itemId),
    read.n,
    fit,
    catalog.map((d) => d.id),
  );
}

function unitsOf(
  rule: ModelRule,
  i: number,
  n: number,
  fit: { label: Int8Array; posterior: Float64Array },
  units: readonly string[],
): Map<string, ItemModelLabel> {
  const out = new Map<string, ItemModelLabel>();
  if (i < 0) return out;
  units.forEach((unit, u) => {
    const code = fit.label[u * n + i];
    if (code >= 0) out.set(unit, { rule, code, posterior: fit.posterior[u * n + i] });
  });
  return out;
}
