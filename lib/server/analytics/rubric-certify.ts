import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import * as cq from '@/db/queries/certify';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import {
  ALT_TEST_MIN_ITEMS,
  ALT_TEST_MIN_REVIEWERS,
  ALT_TEST_Q,
  altTestEpsilonSchema,
  altTestOn,
  certification,
  certifyTargetSchema,
  humanBlock,
  settledTimes,
} from './certify';
import { judgeNameSchema, judgeRunNamed } from './data';
import type { RubricCertifyReportDto } from './dto';
import {
  analysableRubricStudy,
  lenientSchema,
  loadRubricFrame,
  requireLenientMap,
  loadRubricGold,
  loadRubricHumanLabels,
  loadRubricJudge,
  sampleSchema,
} from './rubric-data';
import { dimensionIndex } from './rubric-data';

const optionsSchema = z.object({
  judge: judgeNameSchema,
  sample: sampleSchema,
  criterion: z.string().trim().min(1).optional(),
  lenient: lenientSchema,
  target: certifyTargetSchema,
  epsilon: altTestEpsilonSchema,
});

export type RubricCertifyOptions = Omit<z.input<typeof optionsSchema>, 'lenient'> & { lenient?: boolean | string };

/**
 * Certification of a judge run on one dimension of a rubric study while people label, as for pairwise studies
 * (`certify.ts`): the confidence sequence of its alignment with ground truth (the same label, or the same label
 * after the dimension's lenient folding), items in the order their ground truth was settled — the ruling's time on
 * that dimension, else the last counting review — and the alternative annotator test on every dimension (strict or
 * folded alike). One judge sample at a time. Leads and admins only.
 */
export function rubricCertifyReport(actor: Actor, studyId: number, opts: RubricCertifyOptions): RubricCertifyReportDto {
  const db = getDb();
  const study = analysableRubricStudy(db, actor, studyId);
  const o = parseInput(optionsSchema, opts);
  const run = judgeRunNamed(db, studyId, o.judge);
  const frame = loadRubricFrame(db, study);
  const d = dimensionIndex(frame, o.criterion);
  requireLenientMap(frame, d, o.lenient, 'ask for strict certification');
  const { n, D } = frame;
  const goldAll = loadRubricGold(db, frame).gold;
  const verdictAll = loadRubricJudge(db, frame, run, o.sample);
  const humans = loadRubricHumanLabels(db, frame);

  // Codes of dimension k, folded by its lenient map when asked for and it has one.
  const fold = (k: number) => (o.lenient && frame.lenient[k] ? frame.lenient[k] : null);
  const codesOf = (all: Int8Array, k: number) => {
    const slice = all.subarray(k * n, (k + 1) * n);
    const map = fold(k);
    return map ? slice.map((x) => (x < 0 ? x : map[x])) : slice;
  };
  const humansOf = (k: number) => {
    const map = fold(k);
    return humanBlock(humans, k, map ? (x) => map[x] : undefined);
  };

  const gold = codesOf(goldAll, d);
  const ruling = new Float64Array(n).fill(-1);
  for (const [itemId, dim, time] of cq.rubricRulingTimes(db, studyId)) {
    if (dim !== d) continue;
    const i = frame.items.of(itemId);
    if (i >= 0) ruling[i] = time;
  }
  // Unanimity (which decides whether a ruling settled the label) is read on the labels as given, as the rule reads them.
  const at = settledTimes(db, study, frame.items, ruling, gold, humanBlock(humans, d));
  return {
    studyId,
    kind: 'rubric',
    judge: run.name,
    sample: o.sample,
    criterion: frame.dimensions[d].id,
    lenient: o.lenient,
    groundTruthRule: study.groundTruthRule,
    ...certification(db, studyId, frame.items, gold, codesOf(verdictAll, d), at, o.target),
    altTest: {
      epsilon: o.epsilon,
      q: ALT_TEST_Q,
      minReviewers: ALT_TEST_MIN_REVIEWERS,
      minItemsPerAnnotator: ALT_TEST_MIN_ITEMS,
      criteria: Array.from({ length: D }, (_, k) => {
        const dim = frame.dimensions[k];
        const labels = fold(k) ? frame.lenientLabels[k]!.length : dim.labels.length;
        return altTestOn({ id: dim.id, name: dim.name }, humansOf(k), codesOf(verdictAll, k), o.epsilon, labels);
      }),
    },
  };
}
