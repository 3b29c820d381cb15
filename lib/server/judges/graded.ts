import 'server-only';
import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import type { JudgeGrading } from '@/lib/kinds/facets/judges';
import { LABEL_SET, loadFrame, loadGold, loadJudge } from '../analytics/data';
import { loadRubricFrame, loadRubricGold, loadRubricJudge } from '../analytics/dimension-frame';
import { canGrade, gradingOf } from './graded-kinds';

/*
 * A judge run's verdicts beside the study's settled ground truth, as the alignment report counts them: the ground
 * truth from the ground-truth core's codes (the study's rule), a pairwise verdict in the order a, b, the swapped one
 * only where it is the only one, a rubric verdict of one sample. Read through the same loaders as the alignment
 * reports, so "the judge disagreed here" and "the judge's alignment" can never count differently. Worked examples
 * read this.
 */

export type GradedCriterion = {
  id: string;
  name: string;
  /** The labels in code order. */
  labels: readonly string[];
  /** A rubric dimension's lenient map: each strict code's lenient code, and the lenient labels; null without one. */
  lenient: { codes: Int8Array; labels: readonly string[] } | null;
};

export type Graded = {
  /** Number of items, in position order. */
  n: number;
  /** Item id of each item index. */
  itemIds: readonly number[];
  /** The criteria (or dimensions) in study order. */
  criteria: GradedCriterion[];
  /** Ground truth, criterion-major (`gold[c * n + i]`), −1 where the study has settled none. */
  gold: Int8Array;
  /** The run's verdict, criterion-major, −1 where it gave none. */
  verdict: Int8Array;
};

type Reader = (db: Db, study: StudyRow, run: { id: number; name: string }, sample: number) => Graded;

function pairwiseGraded(db: Db, study: StudyRow, run: { id: number }): Graded {
  const frame = loadFrame(db, study);
  return {
    n: frame.n,
    itemIds: frame.items.ids,
    criteria: frame.criteria.map((c) => ({ id: c.id, name: c.name, labels: LABEL_SET, lenient: null })),
    gold: loadGold(db, frame).gold,
    verdict: loadJudge(db, frame, run.id).verdict,
  };
}

/** One sample of a rubric run (the alignment report's default is sample 1), per dimension of the catalog. */
function rubricGraded(db: Db, study: StudyRow, run: { id: number; name: string }, sample: number): Graded {
  const frame = loadRubricFrame(db, study);
  return {
    n: frame.n,
    itemIds: frame.items.ids,
    criteria: frame.dimensions.map((d, k) => ({
      id: d.id,
      name: d.name,
      labels: d.labels,
      lenient: frame.lenient[k] ? { codes: frame.lenient[k], labels: frame.lenientLabels[k]! } : null,
    })),
    gold: loadRubricGold(db, frame).gold,
    verdict: loadRubricJudge(db, frame, run, sample),
  };
}

/** Each way of grading the kinds' judges facets name (`grading`). */
const READERS: Record<JudgeGrading, Reader> = { criteria: pairwiseGraded, dimensions: rubricGraded };

export { canGrade };

/** A run's verdicts (of sample `sample` where the kind keeps several) beside the settled ground truth. */
export function gradedRun(db: Db, study: StudyRow, run: { id: number; name: string }, sample = 1): Graded {
  const grading = gradingOf(study);
  if (!grading) throw new Error(`no graded reader for ${study.kind}`);
  return READERS[grading](db, study, run, sample);
}

/** Where the judge's verdict differs from the settled label: item index → the criteria indexes, in study order. */
export function disagreements(g: Graded): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let i = 0; i < g.n; i++)
    for (let c = 0; c < g.criteria.length; c++) {
      const gold = g.gold[c * g.n + i];
      const v = g.verdict[c * g.n + i];
      if (gold >= 0 && v >= 0 && gold !== v) {
        const list = out.get(i);
        if (list) list.push(c);
        else out.set(i, [c]);
      }
    }
  return out;
}
