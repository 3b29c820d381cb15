import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { judgeNameSchema, judgeRunNamed } from './data';
import type { RubricHybridReportDto } from './dto';
import { acceptanceOptions } from './acceptance';
import { loadRubricConfidences } from './confidences';
import { hybridPlanFromCodes } from './hybrid';
import {
  type RubricFrame,
  analysableRubricStudy,
  foldLenient,
  lenientSchema,
  loadRubricFrame,
  requireLenientMap,
  loadRubricGold,
  loadRubricJudge,
  sampleSchema,
  dimensionIndex,
} from './rubric-data';

/* Padó's hybrid review plan on one dimension of a rubric study, for every tutor together and per tutor. */

export const rubricHybridOptions = z.object({
  judge: judgeNameSchema,
  sample: sampleSchema,
  criterion: z.string().trim().min(1).optional(),
  lenient: lenientSchema,
  target: z.coerce
    .number({ error: 'target must be a number.' })
    .gt(0, { error: 'target must be above 0.' })
    .max(1, { error: 'target is an accuracy, at most 1.' })
    .default(0.95),
  ...acceptanceOptions,
});

export type RubricHybridOptions = Omit<z.input<typeof rubricHybridOptions>, 'lenient' | 'epsilon' | 'delta'> & {
  lenient?: boolean | string;
  epsilon?: number | string;
  delta?: number | string;
};

/** The codes of dimension d (folded when `lenient`) of gold and verdict, and the label set they index. */
export function planCodes(frame: RubricFrame, d: number, gold: Int8Array, verdict: Int8Array, lenient: boolean) {
  const { n } = frame;
  const g = gold.subarray(d * n, (d + 1) * n);
  const v = verdict.subarray(d * n, (d + 1) * n);
  if (!lenient || !frame.lenient[d]) return { gold: g, verdict: v, labels: [...frame.dimensions[d].labels] };
  return {
    gold: foldLenient(frame, d, g, new Int8Array(n)),
    verdict: foldLenient(frame, d, v, new Int8Array(n)),
    labels: frame.lenientLabels[d]!,
  };
}

/**
 * Padó's (2025) hybrid review plan for one judge run on one dimension of a rubric study (strict, or folded by the
 * dimension's lenient map as in Padó's setting): for every tutor together and for each tutor apart (Table 4: judge
 * alone, hybrid accuracy, effort saved, extra random reviews to reach the target), and for every dimension.
 * Opening the review queue is a separate step (`rubric-hybrid-queue.ts`). Leads and admins only.
 */
export function rubricHybridReport(actor: Actor, studyId: number, opts: RubricHybridOptions): RubricHybridReportDto {
  const db = getDb();
  const study = analysableRubricStudy(db, actor, studyId);
  const o = parseInput(rubricHybridOptions, opts);
  const run = judgeRunNamed(db, studyId, o.judge);
  const frame = loadRubricFrame(db, study);
  const d = dimensionIndex(frame, o.criterion);
  requireLenientMap(frame, d, o.lenient, 'ask for the strict plan');
  const gold = loadRubricGold(db, frame).gold;
  const verdict = loadRubricJudge(db, frame, run, o.sample);
  const codes = planCodes(frame, d, gold, verdict, o.lenient);
  const levels = { epsilon: o.epsilon, delta: o.delta };
  const { n } = frame;
  const confidence = loadRubricConfidences(db, frame, run.id, o.sample);
  const planOn = (e: number, gold: Int8Array, verdict: Int8Array, labels: string[], keep?: (i: number) => boolean) =>
    hybridPlanFromCodes(gold, verdict, labels, o.target, levels, keep, confidence.subarray(e * n, (e + 1) * n));
  return {
    studyId,
    kind: 'rubric',
    judge: run.name,
    sample: o.sample,
    criterion: frame.dimensions[d].id,
    lenient: o.lenient,
    target: o.target,
    labels: codes.labels,
    ...planOn(d, codes.gold, codes.verdict, codes.labels),
    byModel: frame.tutors.map((model, t) => ({
      model,
      ...planOn(d, codes.gold, codes.verdict, codes.labels, (i) => frame.tutorOf[i] === t),
    })),
    byCriterion: frame.dimensions.map((dim, e) => {
      const folded = o.lenient && frame.lenient[e] !== null;
      const c = planCodes(frame, e, gold, verdict, folded);
      return { criterion: dim.id, name: dim.name, lenient: folded, ...planOn(e, c.gold, c.verdict, c.labels) };
    }),
  };
}
