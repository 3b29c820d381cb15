import 'server-only';
import * as z from 'zod';
import type { Db } from '@/db/client';
import { rubricJudgePackText, rubricJudgeSamples } from '@/db/queries/analytics';
import type { StudyRow } from '@/db/queries/studies';
import type { RubricDimension } from '@/lib/validation/rubric';
import type { Actor } from '../actor';
import { invalid } from '../errors';
import { type RubricReviewerCodes, rubricDimensions, rubricGroundTruthCodes, rubricReviewerCodes } from '../ground-truth/rubric-codes';
import { type ItemIndex, readItemIndex } from '../packs/item-index';
import { staffStudyOfKind } from '../review/access';
import { type HumanLabels, forEachJudgeSegment, humanLabelsFrom, itemSources, oncePerFrame } from './data';
import type { RubricDimensionDto } from './dto';

/*
 * What only a rubric study loads, for its reports' kind parts (`*-by-kind.ts`): its frame (items in position order,
 * dimensions with their label sets, lenient folds and desired labels, each reply's tutor), the reviewers' labels, the
 * ground truth and one sample of a judge run's verdicts, all as codes addressed by index (dimension-major:
 * `[d * n + i]`), and its own options (a judge sample, lenient scoring). Names appear only in the DTOs. What every
 * kind's loader does alike — the item sources, the reshape of dense codes into compact blocks, the walk over a judge
 * run's packs, one read of the reviewers per frame, the bootstrap and the shared options — is in `data.ts`.
 */

/** A rubric study the actor may analyse (leads and admins only). */
export function analysableRubricStudy(db: Db, actor: Actor, studyId: number): StudyRow {
  // As analysableStudy: the rubric loaders read rubric packs only.
  return staffStudyOfKind(db, actor, studyId, 'rubric', 'This report');
}

export type RubricFrame = {
  study: StudyRow;
  dimensions: RubricDimension[];
  D: number;
  /** Number of items. */
  n: number;
  items: ItemIndex;
  /** The replies' sources, sorted. */
  tutors: string[];
  /** Index into `tutors` of each item's reply. */
  tutorOf: Int32Array;
  /** Lenient code of each dimension's labels (`lenient[d][l]` = index in `lenientLabels[d]`), null without a map. */
  lenient: (Int8Array | null)[];
  lenientLabels: (string[] | null)[];
  /** Code of each dimension's desired label. */
  desired: Int32Array;
};

/** The lenient label set of a dimension: its labels folded by the map, in order of first appearance. */
function lenientOf(d: RubricDimension): { codes: Int8Array; labels: string[] } | null {
  if (!d.lenient || Object.keys(d.lenient).length === 0) return null;
  const labels: string[] = [];
  const codes = Int8Array.from(d.labels, (l) => {
    const t = Object.hasOwn(d.lenient!, l) ? d.lenient![l] : l;
    let k = labels.indexOf(t);
    if (k < 0) k = labels.push(t) - 1;
    return k;
  });
  return { codes, labels };
}

export function loadRubricFrame(db: Db, study: StudyRow): RubricFrame {
  const dimensions = rubricDimensions(study);
  const items = readItemIndex(db, study.id);
  const sources = itemSources(db, study.id, items);
  const folds = dimensions.map(lenientOf);
  return {
    study,
    dimensions,
    D: dimensions.length,
    n: items.n,
    items,
    tutors: sources.names,
    tutorOf: sources.of,
    lenient: folds.map((f) => f?.codes ?? null),
    lenientLabels: folds.map((f) => f?.labels ?? null),
    desired: Int32Array.from(dimensions, (d) => d.labels.indexOf(d.desired)),
  };
}

/** The reviewers' labels (agreement and alignment both need them with the ground truth). */
const reviewersOf = oncePerFrame((db, frame: RubricFrame): RubricReviewerCodes => rubricReviewerCodes(db, frame.study, frame.items));

/** Ground truth, dimension-major (`gold[d * n + i]`, −1 where none). */
export function loadRubricGold(db: Db, frame: RubricFrame) {
  return rubricGroundTruthCodes(db, frame.study, reviewersOf(db, frame));
}

/**
 * The counting reviewer labels before adjudication in the shape of the pairwise `HumanLabels` (one block per
 * dimension with its labelled items and codes by slot; who holds each slot), so the agreement code serves both.
 */
export function loadRubricHumanLabels(db: Db, frame: RubricFrame): HumanLabels {
  return humanLabelsFrom(db, reviewersOf(db, frame), frame.n, frame.D);
}

/** The judge sample a report reads: 1 unless asked (each sample of a run is a verdict set of its own). */
export const sampleSchema = z.coerce
  .number({ error: 'sample must be a number.' })
  .int({ error: 'sample must be a whole number.' })
  .min(1, { error: 'sample must be at least 1.' })
  .max(100, { error: 'sample is at most 100.' })
  .default(1);

/** Whether a report folds each dimension's labels by its lenient map (`true`/`false`, `1`/`0`; off by default). */
export const lenientSchema = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])], { error: 'lenient is true or false.' })
  .transform((v) => v === true || v === 'true' || v === '1')
  .default(false);

/**
 * One sample of a judge run's verdicts, dimension-major (`verdict[d * n + i]`, −1 where none). A sample the run
 * does not have is refused with the samples it has, unless `lenientMissing` (the leaderboard's runs without it).
 */
export function loadRubricJudge(
  db: Db,
  frame: RubricFrame,
  run: { id: number; name: string },
  sample: number,
  lenientMissing = false,
): Int8Array {
  const { n, D } = frame;
  const verdict = new Int8Array(D * n).fill(-1);
  let read = 0;
  forEachJudgeSegment(
    frame.items,
    (from, to) => rubricJudgePackText(db, run.id, sample, from, to),
    (i, text, start, end) => {
      for (let p = start; p < end; p++) {
        const v = text.charCodeAt(p) - 48;
        const d = v >> 4;
        if (d < D) verdict[d * n + i] = v & 15;
        read++;
      }
    },
  );
  if (read === 0 && sample !== 1 && !lenientMissing) {
    const have = rubricJudgeSamples(db, run.id);
    throw invalid(`The judge run "${run.name}" has no sample ${sample}; its samples: ${have.join(', ') || 'none'}.`, {
      sample: 'Unknown sample',
    });
  }
  return verdict;
}

/** Refuses lenient scoring of a dimension without a lenient map, naming the dimension and what to ask for instead. */
export function requireLenientMap(frame: RubricFrame, d: number, lenient: boolean, instead: string): void {
  if (lenient && !frame.lenient[d])
    throw invalid(`The dimension "${frame.dimensions[d].id}" has no lenient map; ${instead}.`, { lenient: 'No lenient map' });
}

/** Folds codes of dimension d by its lenient map into `out` (−1 stays −1). */
export function foldLenient(frame: RubricFrame, d: number, codes: Int8Array, out: Int8Array): Int8Array {
  const map = frame.lenient[d]!;
  for (let k = 0; k < codes.length; k++) out[k] = codes[k] < 0 ? -1 : map[codes[k]];
  return out;
}

/** The dimensions as the reports name them. */
export const dimensionDtos = (frame: RubricFrame): RubricDimensionDto[] =>
  frame.dimensions.map((d) => ({
    id: d.id,
    name: d.name,
    labels: [...d.labels],
    desired: d.desired,
    ...(d.lenient && Object.keys(d.lenient).length ? { lenient: { ...d.lenient } } : {}),
  }));

/** The dimension a hybrid option names (the first by default); an unknown one is refused with the study's dimensions. */
export function dimensionIndex(frame: RubricFrame, criterion: string | undefined): number {
  if (criterion === undefined) return 0;
  const d = frame.dimensions.findIndex((x) => x.id === criterion);
  if (d < 0)
    throw invalid(`"${criterion}" is not a dimension of this study; use one of: ${frame.dimensions.map((x) => x.id).join(', ')}.`, {
      criterion: 'Unknown dimension',
    });
  return d;
}
