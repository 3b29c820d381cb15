/*
 * A pairwise study's part of its imports (the cores are in lib/server/imports): items with the sources of their two
 * replies, prior labels and judge verdicts per criterion, where a criterion must apply to the item (its principles).
 */
import * as itemsQ from '@/db/queries/items';
import * as judgeRunsQ from '@/db/queries/judge-runs';
import * as pq from '@/db/queries/pairwise';
import type { ImportError } from '@/lib/validation/import-errors';
import { applicableCriteria, type Criterion, type JudgeLine, type PairwiseItem } from '@/lib/validation/pairwise';
import type { ImportsFacet } from '../facets/imports';
import { PAIRWISE_IMPORT_FORMATS } from './import-formats';
import { annotationRecords, judgeRecords, pairwiseRecords, type PairwiseItemFormat } from './records';

/** The criteria that apply to an item, as ids (`principles` absent: every principle criterion). */
function criteriaOf(study: { criteria: unknown }, item: Pick<PairwiseItem, 'principles'>): Set<string> {
  return new Set(applicableCriteria((study.criteria ?? []) as Criterion[], item.principles));
}

const notACriterion = (lineNo: number, criterion: string, item: string): ImportError => ({
  line: lineNo,
  path: `labels.${criterion}`,
  message: `"${criterion}" is not a criterion of item "${item}"`,
});

export const pairwiseImports: ImportsFacet = {
  formats: PAIRWISE_IMPORT_FORMATS,
  items: {
    read: (file, format) => pairwiseRecords(file, format as PairwiseItemFormat),
    payload: (item: PairwiseItem) => JSON.stringify(item),
    insert: (db, row, item: PairwiseItem) =>
      itemsQ.insertItem(db, { ...row, stepCount: null, sourceA: item.a.source ?? null, sourceB: item.b.source ?? null }),
    recordWord: 'line',
  },
  annotations: {
    read: (file, format) => annotationRecords(file, format as Parameters<typeof annotationRecords>[1]),
    labelsOf: (db, study) => ({
      problems: (item, line, lineNo) => {
        const applicable = criteriaOf(study, item as PairwiseItem);
        return Object.keys(line.labels)
          .filter((c) => !applicable.has(c))
          .map((c) => notACriterion(lineNo, c, line.item));
      },
      existing: (annotationId) => Object.fromEntries(pq.labelsOf(db, annotationId).map((l) => [l.criterion, l.label])),
      insert: (annotationId, labels) =>
        pq.insertLabels(
          db,
          annotationId,
          Object.entries(labels).map(([criterion, label]) => ({ criterion, label: label as pq.LabelRow['label'], screenChoice: null })),
        ),
    }),
  },
  judge: {
    read: (file, format, _study, judgeName) => judgeRecords(file, format as Parameters<typeof judgeRecords>[1], judgeName),
    verdictsOf: (db, study) => {
      const criteria = new Map<number, Set<string>>();
      const seen = new Set<string>();
      return {
        problems(itemId, line, lineNo) {
          const { item, judge, labels, swapped } = line as JudgeLine;
          let applicable = criteria.get(itemId);
          if (!applicable) {
            applicable = criteriaOf(study, JSON.parse(itemsQ.itemByExternalId(db, study.id, item)!.payload) as PairwiseItem);
            criteria.set(itemId, applicable);
          }
          const problems: ImportError[] = [];
          for (const criterion of Object.keys(labels)) {
            if (!applicable.has(criterion)) {
              problems.push(notACriterion(lineNo, criterion, item));
              continue;
            }
            const key = `${judge}\u0000${item}\u0000${criterion}\u0000${swapped}`;
            if (seen.has(key))
              problems.push({
                line: lineNo,
                path: `labels.${criterion}`,
                message: `a second ${swapped ? 'swapped ' : ''}verdict on "${criterion}" for "${item}"`,
              });
            seen.add(key);
          }
          return problems;
        },
        rowsOf: (itemId, line): judgeRunsQ.JudgeVerdict[] => {
          const v = line as JudgeLine;
          return Object.entries(v.labels).map(([criterion, label]) => [
            itemId,
            criterion,
            v.swapped ? 1 : 0,
            label,
            v.rationale ?? null,
            v.confidence ?? null,
          ]);
        },
        insert: judgeRunsQ.insertJudgeLabel as (db: Parameters<typeof judgeRunsQ.insertJudgeLabel>[0], runId: number, row: unknown) => void,
      };
    },
  },
};
