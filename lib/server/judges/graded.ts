import 'server-only';
import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import type { StudyKind } from '@/lib/validation/labels';
import { LABEL_SET, loadFrame, loadGold, loadJudge } from '../analytics/data';
import { canGrade } from './graded-kinds';

/*
 * A judge run's verdicts beside the study's settled ground truth, as the alignment report counts them: the ground
 * truth from the ground-truth core's codes (`groundTruthCodes`, the study's rule), a pairwise verdict in the order
 * a, b, the swapped one only where it is the only one. Read through the same loaders as the alignment report, so
 * "the judge disagreed here" and "the judge's alignment" can never count differently. Worked examples and the
 * comparison that leaves them out read this.
 */

export type Graded = {
  /** Number of items, in position order. */
  n: number;
  /** Item id of each item index. */
  itemIds: readonly number[];
  /** The criteria (or dimensions) in study order, each with its labels in code order. */
  criteria: { id: string; name: string; labels: readonly string[] }[];
  /** Ground truth, criterion-major (`gold[c * n + i]`), −1 where the study has settled none. */
  gold: Int8Array;
  /** The run's verdict, criterion-major, −1 where it gave none. */
  verdict: Int8Array;
};

type Reader = (db: Db, study: StudyRow, runId: number) => Graded;

function pairwiseGraded(db: Db, study: StudyRow, runId: number): Graded {
  const frame = loadFrame(db, study);
  return {
    n: frame.n,
    itemIds: frame.items.ids,
    criteria: frame.criteria.map((c) => ({ id: c.id, name: c.name, labels: LABEL_SET })),
    gold: loadGold(db, frame).gold,
    verdict: loadJudge(db, frame, runId).verdict,
  };
}

/** Each kind's reader, for the kinds `GRADED_KINDS` names (graded-kinds.ts). */
const READERS: Partial<Record<StudyKind, Reader>> = { pairwise: pairwiseGraded };

export { canGrade };

export function gradedRun(db: Db, study: StudyRow, runId: number): Graded {
  const read = canGrade(study) ? READERS[study.kind] : undefined;
  if (!read) throw new Error(`no graded reader for ${study.kind}`);
  return read(db, study, runId);
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
