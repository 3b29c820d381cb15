import 'server-only';
import type { Db } from '@/db/client';
import * as judgeRunsQ from '@/db/queries/judge-runs';
import { rubricJudgeConfidences } from '@/db/queries/imports';
import type { Frame, JudgeCodes } from './data';
import type { RubricFrame } from './dimension-frame';

/*
 * A judge run's own confidences (the `confidence` of its file's lines), laid out like its verdict codes
 * (criterion- or dimension-major, NaN where a verdict has none), for calibration and for error-bounded acceptance
 * by class × confidence bin.
 */

/** A pairwise run's confidence in the verdict that counts: the canonical order's, or the swapped one's where only that order was judged. */
export function loadVerdictConfidences(db: Db, frame: Frame, runId: number, codes: JudgeCodes): Float64Array {
  const { n } = frame;
  const out = new Float64Array(frame.criteria.length * n).fill(NaN);
  for (const r of judgeRunsQ.judgeConfidences(db, runId)) {
    const c = frame.criterionIds.indexOf(r.criterion);
    const i = frame.items.of(r.itemId);
    if (c < 0 || i < 0) continue;
    if (!r.swapped || codes.original[c * n + i] < 0) out[c * n + i] = r.confidence;
  }
  return out;
}

/** A rubric run's confidences in one sample's verdicts. */
export function loadRubricConfidences(db: Db, frame: RubricFrame, runId: number, sample: number): Float64Array {
  const { n, D } = frame;
  const out = new Float64Array(D * n).fill(NaN);
  for (const c of rubricJudgeConfidences(db, runId, sample)) {
    const i = frame.items.of(c.itemId);
    if (i >= 0 && c.dimension < D) out[c.dimension * n + i] = c.confidence;
  }
  return out;
}
