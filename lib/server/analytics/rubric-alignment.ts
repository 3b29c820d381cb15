import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import { rubricJudgeSamples } from '@/db/queries/rubric-analytics';
import { type Stat, cohenKappa, contingencyTable } from '@/lib/stats';
import { alignmentFromConfusion } from '@/lib/stats/rubric';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import {
  ResampledRows,
  bootstrapEstimates,
  bootstrapInfo,
  bootstrapSeed,
  drawCounts,
  judgeNameSchema,
  missing,
  noInterval,
  replicatesSchema,
  statDto,
  wilson,
  judgeRunNamed,
} from './data';
import type { RubricAlignmentReportDto, RubricAlignmentSummaryDto, RubricSummaryDto } from './dto';
import {
  type RubricFrame,
  analysableRubricStudy,
  loadRubricFrame,
  loadRubricGold,
  loadRubricJudge,
  sampleSchema,
  dimensionDtos,
} from './rubric-data';

/*
 * A judge's alignment with the ground truth of a rubric study: per dimension, tutor and tutor × dimension, strict
 * and lenient. Ground truth is the rule's (`lib/server/ground-truth/rubric-codes.ts`); every statistic is lib/stats'.
 */

const sameList = (a: readonly string[] | null, b: readonly string[] | null) =>
  a !== null && b !== null && a.length === b.length && a.every((x, k) => x === b[k]);

/** (item, ground truth, judge) rows of one group of labels. */
type Group = { items: Int32Array; gold: Int8Array; judge: Int8Array };

/**
 * Splits the (item, dimension) labels with both ground truth and a verdict into groups: 0 = all, 1 + d = dimension
 * d, 1 + D + t = tutor t, 1 + D + T + t · D + d = tutor t on dimension d. Codes are the dimension's own (folded by
 * `fold[d]` when given; a dimension whose fold is null is left out).
 */
function alignmentGroups(frame: RubricFrame, gold: Int8Array, verdict: Int8Array, fold: (Int8Array | null)[] | null) {
  const { n, D, tutorOf } = frame;
  const T = frame.tutors.length;
  const G = 1 + D + T + T * D;
  const sizes = new Int32Array(G);
  const unjudged = new Int32Array(D);
  const use = (d: number) => fold === null || fold[d] !== null;
  for (let d = 0; d < D; d++) {
    if (!use(d)) continue;
    for (let i = 0; i < n; i++) {
      if (gold[d * n + i] < 0) continue;
      if (verdict[d * n + i] < 0) {
        unjudged[d]++;
        continue;
      }
      const t = tutorOf[i];
      sizes[0]++;
      sizes[1 + d]++;
      sizes[1 + D + t]++;
      sizes[1 + D + T + t * D + d]++;
    }
  }
  const groups: Group[] = Array.from(sizes, (m) => ({ items: new Int32Array(m), gold: new Int8Array(m), judge: new Int8Array(m) }));
  const fill = new Int32Array(G);
  const put = (k: number, i: number, g: number, v: number) => {
    const r = fill[k]++;
    const group = groups[k];
    group.items[r] = i;
    group.gold[r] = g;
    group.judge[r] = v;
  };
  for (let d = 0; d < D; d++) {
    if (!use(d)) continue;
    const map = fold?.[d] ?? null;
    for (let i = 0; i < n; i++) {
      let g = gold[d * n + i];
      let v = verdict[d * n + i];
      if (g < 0 || v < 0) continue;
      if (map) {
        g = map[g];
        v = map[v];
      }
      const t = tutorOf[i];
      put(0, i, g, v);
      put(1 + d, i, g, v);
      put(1 + D + t, i, g, v);
      put(1 + D + T + t * D + d, i, g, v);
    }
  }
  return { groups, unjudged };
}

const optionsAlignment = z.object({ judge: judgeNameSchema, sample: sampleSchema, bootstrap: replicatesSchema });

/**
 * How well one judge run (one sample of it) matches ground truth on a rubric study: accuracy (alignment rate),
 * macro-F1, class-wise accuracy (precision of each predicted label, Padó's) and recall, Cohen's κ and the confusion
 * matrix in the dimension's label order — overall, per dimension, per tutor and per tutor × dimension (Padó
 * Table 3), strict and, where the dimension has a lenient map, lenient. Leads and admins only.
 */
export function rubricAlignmentReport(
  actor: Actor,
  studyId: number,
  opts: { judge: string; sample?: number | string; bootstrap?: number | string },
): RubricAlignmentReportDto {
  const db = getDb();
  const study = analysableRubricStudy(db, actor, studyId);
  const { judge, sample, bootstrap: replicates } = parseInput(optionsAlignment, opts);
  const run = judgeRunNamed(db, studyId, judge);
  const frame = loadRubricFrame(db, study);
  const { D } = frame;
  const T = frame.tutors.length;
  const gt = loadRubricGold(db, frame);
  const verdict = loadRubricJudge(db, frame, run, sample);

  const strict = alignmentGroups(frame, gt.gold, verdict, null);
  const anyLenient = frame.lenient.some((m) => m !== null);
  const lenient = anyLenient ? alignmentGroups(frame, gt.gold, verdict, frame.lenient) : null;
  // Labels of each group: a dimension's own; pooled groups only when every pooled dimension has the same set.
  const strictLabels = frame.dimensions.map((d) => [...d.labels]);
  const pooledStrict = strictLabels.every((l) => sameList(l, strictLabels[0])) ? strictLabels[0] : null;
  const lenientLabels = frame.lenientLabels;
  const lenientDims = lenientLabels.filter((l) => l !== null);
  const pooledLenient = lenientDims.length > 0 && lenientDims.every((l) => sameList(l, lenientDims[0])) ? lenientDims[0] : null;
  const labelsOf = (k: number, isLenient: boolean): string[] | null => {
    const per = isLenient ? lenientLabels : strictLabels;
    const pooled = isLenient ? pooledLenient : pooledStrict;
    if (k === 0 || (k >= 1 + D && k < 1 + D + T)) return pooled;
    const d = k < 1 + D ? k - 1 : (k - 1 - D - T) % D;
    return per[d];
  };

  const seed = bootstrapSeed(study.seed, `alignment:${run.name}:${sample}`);
  const w = new Int32Array(frame.n);
  const rows = new ResampledRows();
  const sets: [string, Group[]][] = [['s', strict.groups], ...(lenient ? [['l', lenient.groups] as [string, Group[]]] : [])];
  const est = bootstrapEstimates(
    frame.n,
    (drawn) => {
      const weights = drawCounts(drawn, w);
      const out: Record<string, Stat> = {};
      for (const [tag, groups] of sets) {
        groups.forEach((g, k) => {
          const labels = labelsOf(k, tag === 'l');
          if (!labels) return;
          out[`${tag}.${k}`] = cohenKappa(contingencyTable(g.gold, g.judge, labels.length, rows.of(g.items, weights)));
        });
      }
      return out;
    },
    replicates,
    seed,
  );

  const summary = (tag: 's' | 'l', k: number): RubricSummaryDto => {
    const g = (tag === 's' ? strict : lenient!).groups[k];
    const labels = labelsOf(k, tag === 'l');
    if (!labels) {
      let agree = 0;
      for (let r = 0; r < g.gold.length; r++) if (g.gold[r] === g.judge[r]) agree++;
      const n = g.gold.length;
      return {
        n,
        agree,
        alignmentRate: n ? { value: agree / n } : missing('no_items'),
        macroF1: missing('mixed_label_sets'),
        cohenKappa: missing('mixed_label_sets'),
        labels: null,
        confusion: null,
        classwise: [],
        intervals: { alignmentRate: wilson(agree, n), cohenKappa: noInterval('bootstrap', 'mixed_label_sets') },
      };
    }
    const a = alignmentFromConfusion(contingencyTable(g.gold, g.judge, labels.length), labels);
    return {
      n: a.n,
      agree: a.agree,
      alignmentRate: statDto(a.alignmentRate),
      macroF1: statDto(a.macroF1),
      cohenKappa: statDto(a.cohenKappa),
      labels: [...labels],
      confusion: a.confusion,
      classwise: a.classwise.map((c) => ({
        label: c.label,
        predicted: c.predicted,
        correct: c.correct,
        accuracy: statDto(c.accuracy),
        support: c.support,
        recall: statDto(c.recall),
        intervals: { accuracy: wilson(c.correct, c.predicted), recall: wilson(c.correct, c.support) },
      })),
      intervals: { alignmentRate: wilson(a.agree, a.n), cohenKappa: est[`${tag}.${k}`].interval },
    };
  };
  /** Strict summary of group k, with its lenient one when the group's dimensions have a map. */
  const both = (k: number, hasLenient: boolean): RubricAlignmentSummaryDto => ({
    ...summary('s', k),
    ...(lenient && hasLenient ? { lenient: summary('l', k) } : {}),
  });
  const allLenient = frame.lenient.every((m) => m !== null);

  return {
    studyId,
    kind: 'rubric',
    judge: run.name,
    sample,
    samples: rubricJudgeSamples(db, run.id),
    groundTruthRule: study.groundTruthRule,
    bootstrap: bootstrapInfo(replicates, seed),
    dimensions: dimensionDtos(frame),
    groundTruth: { labels: gt.labels, incompleteItems: gt.incompleteItems },
    unparsedVerdicts: run.unparsed,
    overall: both(0, allLenient),
    byCriterion: frame.dimensions.map((dim, d) => ({
      criterion: dim.id,
      name: dim.name,
      unjudged: strict.unjudged[d],
      ...both(1 + d, frame.lenient[d] !== null),
    })),
    byModel: frame.tutors.map((model, t) => ({
      model,
      ...both(1 + D + t, allLenient),
      byCriterion: frame.dimensions.map((dim, d) => ({
        criterion: dim.id,
        name: dim.name,
        ...both(1 + D + T + t * D + d, frame.lenient[d] !== null),
      })),
    })),
    unjudged: strict.unjudged.reduce((a, b) => a + b, 0),
  };
}
