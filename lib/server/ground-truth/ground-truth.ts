import 'server-only';
import { getDb, type Db } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as gtq from '@/db/queries/ground-truth';
import type { StudyRow } from '@/db/queries/studies';
import { OVERALL } from '@/lib/validation/common';
import { LABELS, type Label } from '@/lib/validation/labels';
import type { Criterion } from '@/lib/validation/pairwise';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { audit } from '../accounts/audit';
import { invalid } from '../errors';
import { codeMap, groundTruthCodes, reviewerCodes, type GroundTruthCodes, type ReviewerCodes } from './ground-truth-codes';
import { ItemIndex } from '../packs/item-index';
import type { GroundTruthSummaryDto } from './dto';
import { groundTruthFile, type GroundTruthExport } from './export-file';
import { rubricGroundTruthExport } from './rubric-ground-truth';
import { kindName } from '@/lib/kinds/names';
import type { StudyKind } from '@/lib/validation/labels';
import { fitPacked, fitUnit, posteriorColumn, type UnitFit } from './model-gold';
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

export { codeMap, groundTruthCodes, reviewerCodes, type GroundTruthCodes, type ReviewerCodes };

export type { Provenance };

export type GroundTruthRow = {
  item: string;
  itemId: number;
  criterion: string;
  label: Label;
  provenance: Provenance;
  /** Under a model rule (dawid_skene, mace), the model's posterior probability of `label`; null otherwise. */
  posterior: number | null;
  /** Each reviewer's label by slot (Reviewer 1 first); null where a reviewer gave none. */
  reviewers: (Label | null)[];
  adjudicator: string | null;
  rationale: string | null;
};

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
      let outcome = decide(codes, offset, S, UNKNOWN_RULING, rule);
      // The rulings are looked up by name, so only where the rule asks for one.
      const ruling = outcome === ASK_RULING ? rulingOf.get(`${itemIds[i]}:${criterion}`) : undefined;
      if (outcome === ASK_RULING) outcome = decide(codes, offset, S, ruling ? LABELS.indexOf(ruling.label) : NO_RULING, rule);
      if (outcome === NO_VOTES) return true;
      const modelled = outcome === MODEL ? fit() : null;
      const code = modelled ? modelled.label[at] : outcomeLabel(outcome);
      const provenance = modelled ? (rule as Provenance) : outcomeProvenance(outcome);
      if (!provenance || code < 0) return false;
      let top = 0;
      for (let s = 0; s < S; s++) if (codes[offset + s] >= 0) top = s + 1;
      const reviewers: (Label | null)[] = Array<Label | null>(Math.max(minSlots, top)).fill(null);
      for (let s = 0; s < top; s++) if (codes[offset + s] >= 0) reviewers[s] = LABELS[codes[offset + s]];
      const adjudicated = provenance === 'adjudicated' ? ruling! : null;
      out.push({
        item: externalIds[i],
        itemId: itemIds[i],
        criterion,
        reviewers,
        label: LABELS[code],
        provenance,
        posterior: modelled ? modelled.posterior[at] : null,
        adjudicator: adjudicated?.adjudicator ?? null,
        rationale: adjudicated?.rationale ?? null,
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

/** How many reviewer columns an export has: the plan, or more where imported prior raters go beyond it. */
export const reviewerColumns = (db: Db, study: StudyRow) => Math.max(study.reviewersPerItem, assignmentsQ.highestSlotOfStudy(db, study.id));

/** A pairwise study's part of the ground-truth export: one row per item and criterion, reviewers by slot. */
function pairwiseGroundTruthExport(db: Db, study: StudyRow) {
  const slots = reviewerColumns(db, study);
  const modelled = isModelRule(study.groundTruthRule);
  return {
    summary: summarize(db, study),
    rows: (snapshot: Db) => groundTruth(snapshot, study),
    out: {
      header: [
        'item',
        'criterion',
        'label',
        'provenance',
        ...posteriorColumn(modelled),
        ...Array.from({ length: slots }, (_, i) => `reviewer${i + 1}_label`),
        'adjudicator',
        'rationale',
      ],
      csv: (r) => [
        r.item,
        r.criterion,
        r.label,
        r.provenance,
        ...(modelled ? [r.posterior ?? ''] : []),
        ...r.reviewers.map((l) => l ?? ''),
        r.adjudicator ?? '',
        r.rationale ?? '',
      ],
      json: (r) => ({
        item: r.item,
        criterion: r.criterion,
        label: r.label,
        provenance: r.provenance,
        ...(modelled ? { posterior: r.posterior } : {}),
        reviewers: r.reviewers,
        adjudicator: r.adjudicator,
        rationale: r.rationale,
      }),
    },
  } satisfies GroundTruthExport<GroundTruthRow, GroundTruthSummaryDto>;
}

/** A kind's part of the export as a function of the format, its row type kept inside. */
const asFile =
  <R>(make: (db: Db, study: StudyRow) => GroundTruthExport<R, GroundTruthSummaryDto>) =>
  (db: Db, study: StudyRow, format: 'jsonl' | 'csv') => {
    const { summary, rows, out } = make(db, study);
    return groundTruthFile(study, format, summary, rows, out);
  };

/*
 * Each kind's part of the export, or null for a kind without ground truth. The parts differ in their columns and in
 * what a reviewer column is (pairwise: by slot; rubric: the slots that labelled, in order), so each kind keeps its
 * own; a new kind adds its entry here (the table must name every kind).
 */
const GROUND_TRUTH_EXPORTS: Record<StudyKind, ReturnType<typeof asFile<unknown>> | null> = {
  flow_review: null,
  pairwise: asFile(pairwiseGroundTruthExport),
  rubric: asFile(rubricGroundTruthExport),
};

/** The ground-truth export: JSONL or CSV lines, streamed from a snapshot; incomplete items are left out and counted. */
export function exportGroundTruth(actor: Actor, studyId: number, format: string) {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const kindExport = GROUND_TRUTH_EXPORTS[study.kind];
  if (!kindExport) throw invalid(`A ${kindName(study.kind).toLowerCase()} study has no ground truth to export; export its flows instead.`);
  if (format !== 'jsonl' && format !== 'csv') throw invalid(`Unknown format "${format}"; use jsonl or csv.`);
  const file = kindExport(db, study, format);
  audit(db, { userId: actor.id, action: 'export', studyId, detail: { what: 'ground-truth', format } });
  return file;
}
