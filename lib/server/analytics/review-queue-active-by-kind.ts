import 'server-only';
import type { Db } from '@/db/client';
import { rubricJudgeSamples } from '@/db/queries/analytics';
import type { StudyRow } from '@/db/queries/studies';
import type { UNCERTAINTY_SOURCES } from '@/db/schema/active';
import { OVERALL } from '@/lib/validation/common';
import { invalid } from '../errors';
import { loadRubricConfidences } from './confidences';
import { criterionIndex, judgeRunNamed, loadFrame } from './data';
import { confidenceUncertainty, uncertaintyOf } from './review-queue-active';
import { type RubricFrame, dimensionIndex, loadRubricFrame, loadRubricJudge } from './dimension-frame';

/*
 * What an active draw (`review-queue-active.ts`) needs of a kind of study: the catalog entry the draw is on (a
 * pairwise criterion, a rubric dimension), the judge run and the second one, and the judge's uncertainty about each
 * item from the chosen source. The draw, its storage, the queue and the audit are the core's; the weighted estimate
 * reads the stored draw (`corrected-leaderboard-active.ts`) whatever the kind. Decisions 0032 and 0045.
 */

export type UncertaintySource = (typeof UNCERTAINTY_SOURCES)[number];

/** The pool's raw material: per study item (by index) its uncertainty, null where the run gave no verdict. */
export type ActiveSource = {
  criterion: string;
  run: { id: number; name: string };
  second: { id: number; name: string } | null;
  itemIds: ArrayLike<number>;
  uncertainty: (number | null)[];
};

export type ActiveKindPart = {
  /** The sources this kind offers, the default first (the queue form lists them in this order). */
  sources: readonly UncertaintySource[];
  load: (
    db: Db,
    study: StudyRow,
    o: { judge: string; criterion?: string; source: UncertaintySource; secondJudge?: string },
  ) => ActiveSource;
};

/** The second run of a `second_judge` draw: another run of the study. */
function secondRun(db: Db, studyId: number, runId: number, o: { source: UncertaintySource; secondJudge?: string }) {
  const second = o.source === 'second_judge' ? judgeRunNamed(db, studyId, o.secondJudge!) : null;
  if (second && second.id === runId) throw invalid('The second judge run must be another run.', { secondJudge: 'Another run' });
  return second;
}

const pairwise: ActiveKindPart = {
  sources: ['orders', 'samples', 'confidence', 'second_judge'],
  load(db, study, o) {
    const criterion = o.criterion ?? OVERALL;
    const frame = loadFrame(db, study);
    const c = criterionIndex(frame, criterion);
    const run = judgeRunNamed(db, study.id, o.judge);
    const second = secondRun(db, study.id, run.id, o);
    return {
      criterion,
      run,
      second,
      itemIds: frame.items.ids,
      uncertainty: uncertaintyOf(db, frame, run.id, c, o.source, second?.id ?? null),
    };
  },
};

/* ----- rubric: the share of the dimension's desired label ----- */

/** Whether each verdict of dimension d (sample-major codes) is the desired label: 1, 0, or −1 without a verdict. */
function desiredOf(frame: RubricFrame, d: number, verdict: Int8Array): Int8Array {
  const { n } = frame;
  const want = frame.desired[d];
  return Int8Array.from(verdict.subarray(d * n, (d + 1) * n), (v) => (v < 0 ? -1 : v === want ? 1 : 0));
}

/** The mean of the known values stands for the unknown ones (NaN), as for pairs; null stays null (no verdict). */
function fillUnknown(u: (number | null)[]): (number | null)[] {
  let sum = 0;
  let known = 0;
  for (const x of u) {
    if (x === null || Number.isNaN(x)) continue;
    sum += x;
    known++;
  }
  const fill = known ? sum / known : 0;
  return u.map((x) => (x !== null && Number.isNaN(x) ? fill : x));
}

/**
 * The judge's uncertainty about each reply on dimension d, in [0, ½] except for a confidence (in [0, 1]). The rubric
 * reports estimate the share of the desired label, so the samples' spread is u = min(p, 1 − p) with p the share of
 * the run's samples that give the desired label (the authors' uncertainty of a probability), and a second run's
 * disagreement is ½ where one run gives the desired label and the other does not. A confidence is the first sample's
 * (the one the reports read by default). A rubric run has no two orders. The verdict that decides whether a reply is
 * in the pool is the first sample's.
 */
export function rubricUncertainty(
  db: Db,
  frame: RubricFrame,
  run: { id: number; name: string },
  d: number,
  source: UncertaintySource,
  second: { id: number; name: string } | null,
): (number | null)[] {
  const { n } = frame;
  const first = desiredOf(frame, d, loadRubricJudge(db, frame, run, 1, true));
  if (source === 'orders')
    throw invalid('A rubric run has no two orders: take the uncertainty from its samples, its confidence or a second judge run.', {
      source: 'No two orders',
    });
  if (source === 'confidence')
    return confidenceUncertainty(loadRubricConfidences(db, frame, run.id, 1).subarray(d * n, (d + 1) * n), first);
  if (source === 'second_judge') {
    const other = desiredOf(frame, d, loadRubricJudge(db, frame, second!, 1, true));
    return fillUnknown(Array.from(first, (v, i) => (v < 0 ? null : other[i] < 0 ? Number.NaN : Math.abs(v - other[i]) / 2)));
  }
  const samples = rubricJudgeSamples(db, run.id);
  // One sample would give every reply the same π: a uniform draw recorded as an active one.
  if (samples.length < 2)
    throw invalid(`The judge run "${run.name}" has one sample; choose another source of uncertainty.`, { source: 'One sample' });
  const desired = new Float64Array(n);
  const count = new Int32Array(n);
  for (const s of samples) {
    const codes = desiredOf(frame, d, loadRubricJudge(db, frame, run, s, true));
    for (let i = 0; i < n; i++) {
      if (codes[i] < 0) continue;
      desired[i] += codes[i];
      count[i]++;
    }
  }
  return fillUnknown(
    Array.from(first, (v, i) => {
      if (v < 0) return null;
      if (count[i] < 2) return Number.NaN;
      const p = desired[i] / count[i];
      return Math.min(p, 1 - p);
    }),
  );
}

const rubric: ActiveKindPart = {
  sources: ['samples', 'confidence', 'second_judge'],
  load(db, study, o) {
    const frame = loadRubricFrame(db, study);
    const d = dimensionIndex(frame, o.criterion);
    const run = judgeRunNamed(db, study.id, o.judge);
    const second = secondRun(db, study.id, run.id, o);
    return {
      criterion: frame.dimensions[d].id,
      run,
      second,
      itemIds: frame.items.ids,
      uncertainty: rubricUncertainty(db, frame, run, d, o.source, second),
    };
  },
};

/** The kinds whose review queues may draw in active order: the one place the core looks a kind up. */
export const ACTIVE_BY_KIND: Partial<Record<StudyRow['kind'], ActiveKindPart>> = { pairwise, rubric };
