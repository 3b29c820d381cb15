/**
 * What adjudication of a rubric study has of its own: a unit is a dimension of the study's catalog, with its own
 * label set; labels are stored as codes (docs/decisions/0010) and arrive by name, checked against the catalog; the
 * adjudicator names an item by its keyed number, never its row id (docs/decisions/0013). Everything else is the
 * core's (lib/server/review/adjudication.ts).
 */
import type { Db } from '@/db/client';
import * as rq from '@/db/queries/rubric-review';
import type { StudyRow } from '@/db/queries/studies';
import type { RubricAdjudicationDimensionDto, RubricAdjudicationItemDto } from '@/lib/server/review/dto';
import { parseInput } from '@/lib/server/parse';
import { submitRubricAdjudicationSchema } from './schemas';
import type { AdjudicationFacet, ViewContext } from '../facets/adjudication';
import { codesOf, dimensionDto, rubricCatalog } from './catalog';
import { itemIdOfRef, itemRefOf } from './item-refs';
import { blindRubricItem } from './item-view';

/** Each dimension's label codes by reviewer slot (index 0 = Reviewer 1; −1 where that reviewer gave none). */
function codesBySlot(db: Db, itemId: number, dimensions: number) {
  const rows = rq.rubricReviewerLabels(db, itemId);
  const slots = [...new Set(rows.map((r) => r.slot))].sort((a, b) => a - b);
  const byDimension = Array.from({ length: dimensions }, () => Array<number>(slots.length).fill(-1));
  for (const r of rows) if (r.dimension < dimensions) byDimension[r.dimension][slots.indexOf(r.slot)] = r.label;
  return { byDimension, reviewerCount: slots.length };
}

export const rubricAdjudication: AdjudicationFacet = {
  unit: { one: 'dimension', many: 'dimensions' },
  choiceField: 'labels',
  parseRulings: (input) => {
    const { labels, ...rest } = parseInput(submitRubricAdjudicationSchema, input);
    return { ...rest, choices: labels };
  },
  splitUnits: (db, study) => {
    const catalog = rubricCatalog(study);
    return rq.rubricSplitDimensions(db, study.id).flatMap((row) => {
      const labelCount = catalog[row.dimension]?.labels.length;
      if (!labelCount) return [];
      return [
        {
          itemId: row.itemId,
          position: row.position,
          votes: row.labels.split(',').map(Number),
          labelCount,
          adjudicated: row.adjudicated === 1,
        },
      ];
    });
  },
  // Named by their numbers, in the order of those numbers, and numbered 1, 2, … in that order: nothing follows the
  // file's order (docs/decisions/0013).
  queueOf: (study, items) =>
    items
      .map((i) => ({ ...i, itemId: itemRefOf(study, i.itemId) }))
      .sort((a, b) => a.itemId - b.itemId)
      .map((i, k) => ({ ...i, position: k + 1 })),
  itemIdOf: (study, ref) => (study ? itemIdOfRef(study, ref) : 0),
  refOf: (study, itemId) => itemRefOf(study, itemId),
  studyOfItem: (db, itemId) => rq.rubricItemRow(db, itemId)?.studyId,
  ruled: (db, itemId) => rq.hasRubricAdjudication(db, itemId),
  units: (db, study, itemId) => {
    const catalog = rubricCatalog(study);
    const { byDimension } = codesBySlot(db, itemId, catalog.length);
    return catalog.map((d, k) => ({ id: d.id, votes: byDimension[k], labelCount: d.labels.length }));
  },
  choiceCodes: (study, _itemId, _adjudicatorId, choices) => {
    const catalog = rubricCatalog(study);
    return new Map(codesOf(catalog, choices, false).map((c) => [catalog[c.dimension].id, c.label]));
  },
  priorRuling: (db, adjudicatorId, requestId) => rq.rubricAdjudicationByRequest(db, adjudicatorId, requestId),
  insertRuling: (db, study, { unit, ...ruling }) =>
    rq.insertRubricAdjudication(db, { ...ruling, dimension: rubricCatalog(study).findIndex((d) => d.id === unit) }),
  view,
};

/**
 * A disputed rubric item as its adjudicator sees it: the dialogue and reply (no source), and per dimension each
 * reviewer's label as "Reviewer 1 / Reviewer 2", the ruling so far; the dimensions the rule leaves open first.
 */
function view(db: Db, study: StudyRow, _adjudicatorId: number, itemId: number, { decided, place }: ViewContext): RubricAdjudicationItemDto {
  const catalog = rubricCatalog(study);
  const { dimensions: _dimensions, ...item } = blindRubricItem(db, study, itemId, place());
  const { byDimension, reviewerCount } = codesBySlot(db, itemId, catalog.length);
  const rulings = new Map(rq.latestRubricRulings(db, itemId).map((r) => [r.dimension, r]));
  const rows = catalog.map((d, k): RubricAdjudicationDimensionDto => {
    const codes = byDimension[k];
    const ruling = rulings.get(k);
    const decision = decided.get(d.id);
    const agreed = decision?.agreed ?? false;
    return {
      ...dimensionDto(d),
      reviewers: codes.map((c) => (c >= 0 ? d.labels[c] : null)),
      agreed,
      settled: agreed ? d.labels[decision!.settled] : null,
      ruling: ruling ? d.labels[ruling.label] : null,
      rationale: ruling?.rationale ?? null,
    };
  });
  // Disagreements first; within each group the catalog order stays (sort is stable).
  rows.sort((a, b) => Number(a.agreed) - Number(b.agreed));
  return { kind: 'rubric-adjudication', ...item, studyId: study.id, dimensions: rows, reviewerCount };
}
