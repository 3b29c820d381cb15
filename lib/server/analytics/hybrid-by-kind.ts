import 'server-only';
import * as z from 'zod';
import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import { OVERALL } from '@/lib/validation/common';
import { loadRubricConfidences, loadVerdictConfidences } from './confidences';
import { rubricDimensions } from '../ground-truth/rubric-codes';
import { LABEL_SET, criterionIndex, judgeRunNamed, loadFrame, loadGold, loadJudge, studyCriteria } from './data';
import type { HybridChoicesDto, HybridReportDto, RubricHybridReportDto } from './dto';
import { ACTIVE_BY_KIND } from './review-queue-active-by-kind';
import {
  type RubricFrame,
  dimensionIndex,
  foldLenient,
  lenientSchema,
  loadRubricFrame,
  loadRubricGold,
  loadRubricJudge,
  requireLenientMap,
  sampleSchema,
} from './dimension-frame';

/*
 * What the hybrid plan and its review queue (`hybrid.ts`, `hybrid-queue.ts`) need of a kind of study, in one
 * kind-neutral shape: the codes of the planned catalog entry (ground truth, the judge's verdict, its confidence, the
 * label set), the groups with a plan of their own, every entry of the catalog, and the fields the report adds. Each
 * kind with a hybrid plan has one entry here; the statistics, the queue's rules and the audit are the core's.
 */

/** The codes of one catalog entry (criterion, dimension) on every item: −1 none, confidence NaN none. */
export type HybridCodes = {
  labels: readonly string[];
  gold: ArrayLike<number>;
  verdict: ArrayLike<number>;
  confidence: ArrayLike<number>;
};

export type HybridSource = {
  /** The entry planned, as the report names it. */
  criterion: string;
  /** The report's fields between `studyId` and `target` (the judge run's name among them), and after `target`, in its JSON's order. */
  head: Record<string, unknown>;
  afterTarget: Record<string, unknown>;
  codes: HybridCodes;
  /** The judge run's id (it seeds the queue's order). */
  runId: number;
  /** The study's items by index, for the queue. */
  itemIds: ArrayLike<number>;
  /** The groups of items with a plan of their own (a rubric study's tutors), under `byModel`; none: no such field. */
  groups?: { model: string; has: (i: number) => boolean }[];
  /** Every catalog entry's plan, under `byCriterion` (codes read on demand); none: no such field. */
  entries?: { head: Record<string, unknown>; codes: () => HybridCodes }[];
  /** The queue's fields after `criterion` (and the audit's after `target`). */
  queueFields: (queue: Record<string, unknown>) => Record<string, unknown>;
};

/** The options every kind's plan reads; a kind adds its own (`options`). */
export const hybridOptions = {
  judge: z.string({ error: 'Name the judge run.' }).trim().min(1, { error: 'Name the judge run.' }),
  criterion: z.string().trim().min(1).optional(),
  target: z.coerce
    .number({ error: 'target must be a number.' })
    .gt(0, { error: 'target must be above 0.' })
    .max(1, { error: 'target is an accuracy, at most 1.' })
    .default(0.95),
};

type Shared = { judge: string; criterion?: string; target: number };

export type HybridKindPart = {
  /** The report's options only this kind reads. */
  options: z.ZodRawShape;
  /** The queue's options only this kind reads. */
  queueOptions: z.ZodRawShape;
  load: (db: Db, study: StudyRow, o: Shared & Record<string, unknown>) => HybridSource;
  choices: (study: StudyRow) => HybridChoicesDto;
};

const pairwise: HybridKindPart = {
  options: {},
  queueOptions: {},
  choices(study) {
    const criteria = studyCriteria(study);
    // Overall first: the plan's default.
    const ordered = [criteria[criteria.length - 1], ...criteria.slice(0, -1)];
    return {
      entryLabel: 'Criterion',
      entries: ordered.map((c) => ({ id: c.id, name: c.name, hasLenient: false })),
      noun: 'items',
      counted: 'item(s)',
      group: null,
      activeOrder: true,
      activeSources: [...ACTIVE_BY_KIND.pairwise!.sources],
    };
  },
  load(db, study, o) {
    const criterion = o.criterion ?? OVERALL;
    const run = judgeRunNamed(db, study.id, o.judge);
    const frame = loadFrame(db, study);
    const c = criterionIndex(frame, criterion);
    const { n } = frame;
    const judged = loadJudge(db, frame, run.id);
    const part = (a: Int8Array | Float64Array) => a.subarray(c * n, (c + 1) * n);
    return {
      criterion,
      head: { judge: run.name, criterion },
      afterTarget: {},
      codes: {
        labels: LABEL_SET,
        gold: part(loadGold(db, frame).gold),
        verdict: part(judged.verdict),
        confidence: part(loadVerdictConfidences(db, frame, run.id, judged)),
      },
      runId: run.id,
      itemIds: frame.items.ids,
      queueFields: () => ({}),
    };
  },
};

/** The codes of dimension d (folded when `lenient`) of gold and verdict, and the label set they index. */
function planCodes(frame: RubricFrame, d: number, gold: Int8Array, verdict: Int8Array, confidence: Float64Array, lenient: boolean) {
  const { n } = frame;
  const g = gold.subarray(d * n, (d + 1) * n);
  const v = verdict.subarray(d * n, (d + 1) * n);
  const c = confidence.subarray(d * n, (d + 1) * n);
  if (!lenient || !frame.lenient[d]) return { gold: g, verdict: v, confidence: c, labels: [...frame.dimensions[d].labels] };
  return {
    gold: foldLenient(frame, d, g, new Int8Array(n)),
    verdict: foldLenient(frame, d, v, new Int8Array(n)),
    confidence: c,
    labels: frame.lenientLabels[d]!,
  };
}

/**
 * A rubric study: one dimension (strict, or folded by its lenient map as in Padó's setting), one sample of the run;
 * a plan per tutor (Padó Table 4) and per dimension beside it, and a queue that may follow each tutor's own plan.
 */
const rubric: HybridKindPart = {
  options: { sample: sampleSchema, lenient: lenientSchema },
  queueOptions: {
    /** Each tutor's own plan (Padó Table 4) for its replies, instead of one plan for every tutor. */
    perTutor: z
      .union([z.boolean(), z.enum(['true', 'false'])])
      .transform((v) => v === true || v === 'true')
      .default(false),
  },
  choices: (study) => ({
    entryLabel: 'Dimension',
    entries: rubricDimensions(study).map((d) => ({
      id: d.id,
      name: d.name,
      hasLenient: !!d.lenient && Object.keys(d.lenient).length > 0,
    })),
    noun: 'replies',
    counted: 'repl(ies)',
    group: 'tutor',
    activeOrder: true,
    activeSources: [...ACTIVE_BY_KIND.rubric!.sources],
  }),
  load(db, study, o) {
    const sample = o.sample as number;
    const lenient = o.lenient as boolean;
    const run = judgeRunNamed(db, study.id, o.judge);
    const frame = loadRubricFrame(db, study);
    const d = dimensionIndex(frame, o.criterion);
    requireLenientMap(frame, d, lenient, 'ask for the strict plan');
    const gold = loadRubricGold(db, frame).gold;
    const verdict = loadRubricJudge(db, frame, run, sample);
    const confidence = loadRubricConfidences(db, frame, run.id, sample);
    const codes = planCodes(frame, d, gold, verdict, confidence, lenient);
    const criterion = frame.dimensions[d].id;
    return {
      criterion,
      head: { kind: 'rubric', judge: run.name, sample, criterion, lenient },
      afterTarget: { labels: codes.labels },
      codes,
      runId: run.id,
      itemIds: frame.items.ids,
      groups: frame.tutors.map((model, t) => ({ model, has: (i: number) => frame.tutorOf[i] === t })),
      entries: frame.dimensions.map((dim, e) => {
        const folded = lenient && frame.lenient[e] !== null;
        return {
          head: { criterion: dim.id, name: dim.name, lenient: folded },
          codes: () => planCodes(frame, e, gold, verdict, confidence, folded),
        };
      }),
      queueFields: (q) => ({ lenient, perTutor: q.perTutor }),
    };
  },
};

/** The kinds with a hybrid plan, and the report each one's JSON is. */
export const HYBRID_BY_KIND: Partial<Record<StudyRow['kind'], HybridKindPart>> = { pairwise, rubric };

export type HybridDtoOf = { pairwise: HybridReportDto; rubric: RubricHybridReportDto };
export type HybridKind = keyof HybridDtoOf;
