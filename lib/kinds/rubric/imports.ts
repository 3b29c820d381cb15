/*
 * A rubric study's part of its imports (the cores are in lib/server/imports; DESIGN "Rubric item", "Rubric
 * dimensions"): items with their group, prior labels and judge verdicts per dimension and sample. Labels arrive as
 * names, checked against the study's catalog by the readers, and are stored as codes: the dimension's index in the
 * catalog and the label's index in its label set (docs/decisions/0010-rubric-labels.md).
 */
import * as importsQ from '@/db/queries/imports';
import { canonicalJson } from '@/lib/io/canonical';
import type { ImportError } from '@/lib/validation/import-errors';
import type { RubricItem, RubricJudgeLine } from '@/lib/validation/rubric';
import { invalid } from '@/lib/server/errors';
import type { ImportsFacet } from '../facets/imports';
import { codebook, studyCatalog } from './codebook';
import { RUBRIC_IMPORT_FORMATS } from './import-formats';
import { rubricAnnotationRecords, rubricItemRecords, rubricJudgeRecords, type RubricItemFormat } from './records';

export const rubricImports: ImportsFacet = {
  formats: RUBRIC_IMPORT_FORMATS,
  items: {
    read: (file, format) => rubricItemRecords(file, format as RubricItemFormat),
    payload: (item: RubricItem) => canonicalJson(item),
    insert: (db, row, item: RubricItem) =>
      importsQ.insertRubricItem(db, { ...row, source: item.reply?.source ?? null, groupKey: item.group ?? null }),
    recordWord: 'record',
  },
  annotations: {
    read: (file, format, study) =>
      rubricAnnotationRecords(file, format as Parameters<typeof rubricAnnotationRecords>[1], studyCatalog(study)),
    labelsOf: (db, study) => {
      const book = codebook(studyCatalog(study));
      // No `problems`: the reader checked every label against the catalog, and a rubric item has every dimension.
      return {
        existing: (annotationId) => book.names(importsQ.rubricLabelsOf(db, annotationId)),
        insert: (annotationId, labels) => {
          for (const [dimension, label] of Object.entries(labels))
            importsQ.insertRubricLabel(db, annotationId, ...book.code(dimension, label));
        },
      };
    },
  },
  judge: {
    read: (file, format, study, judgeName) => {
      try {
        return rubricJudgeRecords(file, format as Parameters<typeof rubricJudgeRecords>[1], studyCatalog(study), judgeName);
      } catch (e) {
        // EvalKit: a file whose judge cannot be told from its name, and no judge named with the import.
        throw invalid((e as Error).message);
      }
    },
    verdictsOf: (_db, study) => {
      const book = codebook(studyCatalog(study));
      const seen = new Map<string, number>();
      return {
        // Each `sample` of a line is a verdict set of its own.
        problems(_itemId, line, lineNo) {
          const { item, labels, sample } = line as RubricJudgeLine;
          const problems: ImportError[] = [];
          for (const dimension of Object.keys(labels)) {
            const key = `${item}\u0000${dimension}\u0000${sample}`;
            const first = seen.get(key);
            if (first !== undefined)
              problems.push({
                line: lineNo,
                path: `labels.${dimension}`,
                message: `a second verdict on "${dimension}" for "${item}", sample ${sample} (first on line ${first})`,
              });
            else seen.set(key, lineNo);
          }
          return problems;
        },
        rowsOf: (itemId, line): importsQ.RubricVerdict[] => {
          const v = line as RubricJudgeLine;
          return Object.entries(v.labels).map(([dimension, label]) => {
            const [d, l] = book.code(dimension, label);
            return [itemId, d, v.sample, l, v.rationale ?? null, v.confidence ?? null];
          });
        },
        insert: importsQ.insertRubricJudgeLabel as (
          db: Parameters<typeof importsQ.insertRubricJudgeLabel>[0],
          runId: number,
          row: unknown,
        ) => void,
      };
    },
  },
};
