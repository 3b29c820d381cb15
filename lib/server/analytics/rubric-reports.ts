import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import { rubricJudgeSamples } from '@/db/queries/rubric-analytics';
import { type Stat, cohenKappa, contingencyTable, ppiMean } from '@/lib/stats';
import { alignmentFromConfusion } from '@/lib/stats/rubric';
import type { Actor } from '../actor';
import { invalid } from '../errors';
import { parseInput } from '../parse';
import { agreementByCriterion } from './agreement';
import { certInterval, certStat, rankAgreement } from './corrected-leaderboard';
import {
  type CriterionInfo,
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
import type {
  HybridPlanDto,
  RubricAgreementReportDto,
  RubricAlignmentReportDto,
  RubricAlignmentSummaryDto,
  RubricCorrectedCellDto,
  RubricDimensionDto,
  RubricHybridReportDto,
  RubricLeaderboardReportDto,
  RubricLeaderboardRowDto,
  RubricSummaryDto,
  StatDto,
} from './dto';
import { hybridPlanDto } from './hybrid';
import { GROUND_TRUTH_GRADER } from './leaderboard';
import {
  type RubricFrame,
  analysableRubricStudy,
  foldLenient,
  lenientSchema,
  loadRubricFrame,
  requireLenientMap,
  loadRubricGold,
  loadRubricHumanLabels,
  loadRubricJudge,
  sampleSchema,
} from './rubric-data';

/*
 * The reports of a rubric study (issue 12 point 6): agreement per dimension, a judge's alignment per dimension,
 * tutor and tutor × dimension (strict and lenient), the leaderboard of desired-label shares per tutor with the
 * judge-corrected shares, and Padó's hybrid plan per dimension and per tutor. Ground truth is the rule's
 * (`lib/server/ground-truth/rubric-codes.ts`); every statistic is lib/stats'.
 */

export const dimensionDtos = (frame: RubricFrame): RubricDimensionDto[] =>
  frame.dimensions.map((d) => ({
    id: d.id,
    name: d.name,
    labels: [...d.labels],
    desired: d.desired,
    ...(d.lenient && Object.keys(d.lenient).length ? { lenient: { ...d.lenient } } : {}),
  }));

const sameList = (a: readonly string[] | null, b: readonly string[] | null) =>
  a !== null && b !== null && a.length === b.length && a.every((x, k) => x === b[k]);

/* ----- agreement ----- */

/**
 * Inter-annotator agreement per dimension before adjudication, exactly as for pairwise criteria: percent
 * agreement, Fleiss' κ, Krippendorff's α nominal and ordinal (on the dimension's order), Cohen's κ unweighted,
 * linear and quadratic for every pair of reviewers, item-bootstrap intervals. Leads and admins only.
 */
export function rubricAgreementReport(actor: Actor, studyId: number, opts: { bootstrap?: number | string } = {}): RubricAgreementReportDto {
  const db = getDb();
  const study = analysableRubricStudy(db, actor, studyId);
  const { bootstrap: replicates } = parseInput(z.object({ bootstrap: replicatesSchema }), opts);
  const frame = loadRubricFrame(db, study);
  const human = loadRubricHumanLabels(db, frame);
  const seed = bootstrapSeed(study.seed, 'agreement');
  const infos: CriterionInfo[] = frame.dimensions.map((d) => ({ id: d.id, name: d.name, level: 'general' }));
  const core = agreementByCriterion(
    human,
    frame.n,
    infos,
    frame.dimensions.map((d) => d.labels.length),
    replicates,
    seed,
  );
  return {
    studyId,
    kind: 'rubric',
    bootstrap: bootstrapInfo(replicates, seed),
    dimensions: dimensionDtos(frame),
    criteria: core.criteria.map((c, d) => ({ ...c, labels: [...frame.dimensions[d].labels] })),
    macro: core.macro,
  };
}

/* ----- alignment ----- */

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

/* ----- leaderboard ----- */

type Grader = { name: string; codes: Int8Array; judge: boolean };

/** Whether code l of dimension d is desired, strictly and after lenient folding. */
function desiredTables(frame: RubricFrame) {
  return frame.dimensions.map((dim, d) => {
    const q = dim.labels.length;
    const strict = new Uint8Array(q);
    const lenient = new Uint8Array(q);
    const want = frame.desired[d];
    strict[want] = 1;
    const map = frame.lenient[d];
    for (let l = 0; l < q; l++) lenient[l] = map ? (map[l] === map[want] ? 1 : 0) : strict[l];
    return { strict, lenient, hasLenient: map !== null };
  });
}

/**
 * Per tutor and grader (the ground truth, then every judge run, by name): the share of each dimension's desired
 * label with its Wilson interval, strictly and after lenient folding (MRBench's results tables); per judge run the
 * shares corrected by the ground truth (PPI++) per tutor × dimension, and rank agreement of the tutors' order.
 * Leads and admins only.
 */
export function rubricLeaderboardReport(
  actor: Actor,
  studyId: number,
  opts: { sample?: number | string } = {},
): RubricLeaderboardReportDto {
  const db = getDb();
  const study = analysableRubricStudy(db, actor, studyId);
  const { sample } = parseInput(z.object({ sample: sampleSchema }), opts);
  const frame = loadRubricFrame(db, study);
  const { n, D, tutorOf } = frame;
  const T = frame.tutors.length;
  const gold = loadRubricGold(db, frame).gold;
  const graders: Grader[] = [
    { name: GROUND_TRUTH_GRADER, codes: gold, judge: false },
    ...aq.judgeRuns(db, studyId).map((r) => ({ name: r.name, codes: loadRubricJudge(db, frame, r, sample, true), judge: true })),
  ];
  const desired = desiredTables(frame);

  const rows: RubricLeaderboardRowDto[] = [];
  const tallies = graders.map((g) => {
    // Per tutor × dimension: labels, desired, desired after folding; per tutor: items labelled, agreements with gold.
    const count = new Int32Array(T * D);
    const hit = new Int32Array(T * D);
    const hitLenient = new Int32Array(T * D);
    const labelled = new Uint8Array(n);
    const agree = new Int32Array(T);
    const both = new Int32Array(T);
    for (let d = 0; d < D; d++) {
      const s = desired[d].strict;
      const l = desired[d].lenient;
      for (let i = 0; i < n; i++) {
        const c = g.codes[d * n + i];
        if (c < 0) continue;
        const k = tutorOf[i] * D + d;
        count[k]++;
        hit[k] += s[c];
        hitLenient[k] += l[c];
        labelled[i] = 1;
        const y = gold[d * n + i];
        if (g.judge && y >= 0) {
          both[tutorOf[i]]++;
          if (y === c) agree[tutorOf[i]]++;
        }
      }
    }
    const items = new Int32Array(T);
    for (let i = 0; i < n; i++) if (labelled[i]) items[tutorOf[i]]++;
    return { count, hit, hitLenient, items, agree, both };
  });
  frame.tutors.forEach((model, t) => {
    graders.forEach((g, k) => {
      const x = tallies[k];
      const perCriterion: Record<string, StatDto> = {};
      const lenient: Record<string, StatDto> = {};
      const counts: RubricLeaderboardRowDto['counts'] = {};
      const intervals: RubricLeaderboardRowDto['intervals'] = {
        perCriterion: {},
        lenient: {},
        alignmentRate: noInterval('wilson', 'not_applicable'),
      };
      frame.dimensions.forEach((dim, d) => {
        const j = t * D + d;
        const m = x.count[j];
        perCriterion[dim.id] = m ? { value: x.hit[j] / m } : missing('no_items');
        intervals.perCriterion[dim.id] = wilson(x.hit[j], m);
        counts[dim.id] = { n: m, desired: x.hit[j] };
        if (desired[d].hasLenient) {
          lenient[dim.id] = m ? { value: x.hitLenient[j] / m } : missing('no_items');
          intervals.lenient[dim.id] = wilson(x.hitLenient[j], m);
          counts[dim.id].desiredLenient = x.hitLenient[j];
        }
      });
      let alignmentRate: StatDto = missing('not_applicable');
      if (g.judge) {
        alignmentRate = x.both[t] ? { value: x.agree[t] / x.both[t] } : missing('no_items');
        intervals.alignmentRate = wilson(x.agree[t], x.both[t]);
      }
      rows.push({ model, grader: g.name, items: x.items[t], perCriterion, lenient, counts, alignmentRate, intervals });
    });
  });

  const corrected = graders.filter((g) => g.judge).map((g) => ({ judge: g.name, cells: correctedCells(frame, gold, g.codes, desired) }));
  const scored = rows.map((r) => ({
    model: r.model,
    grader: r.grader,
    perCriterion: r.perCriterion,
    overallAcc: missing('not_applicable'),
  }));
  return {
    studyId,
    kind: 'rubric',
    sample,
    dimensions: dimensionDtos(frame),
    models: frame.tutors,
    graders: graders.map((g) => g.name),
    rows,
    corrected,
    rankAgreement: rankAgreement(
      scored,
      GROUND_TRUTH_GRADER,
      frame.dimensions.map((d) => d.id),
    ),
  };
}

/**
 * The desired share per tutor × dimension (strict, then lenient where there is a map) estimated from the judge on
 * every reply it labelled, corrected by the replies with ground truth (PPI++), beside the human-only and
 * judge-only estimates. Valid when the replies with ground truth are a random sample of the tutor's replies.
 */
/**
 * The judge-corrected shares (PPI++) of one run's verdicts against a ground truth, per tutor × dimension and scoring:
 * what the leaderboard reports, callable with a ground truth of one's own (e.g. part of it hidden).
 */
export const rubricCorrectedCells = (frame: RubricFrame, gold: Int8Array, verdict: Int8Array) =>
  correctedCells(frame, gold, verdict, desiredTables(frame));

function correctedCells(
  frame: RubricFrame,
  gold: Int8Array,
  verdict: Int8Array,
  desired: ReturnType<typeof desiredTables>,
): RubricCorrectedCellDto[] {
  const { n, D, tutorOf } = frame;
  const T = frame.tutors.length;
  const cells: RubricCorrectedCellDto[] = [];
  for (let d = 0; d < D; d++) {
    for (const isLenient of desired[d].hasLenient ? [false, true] : [false]) {
      const table = isLenient ? desired[d].lenient : desired[d].strict;
      const y = Array.from({ length: T }, () => [] as number[]);
      const yhat = Array.from({ length: T }, () => [] as number[]);
      const yhatU = Array.from({ length: T }, () => [] as number[]);
      const labelledUnjudged = new Int32Array(T);
      for (let i = 0; i < n; i++) {
        const g = gold[d * n + i];
        const v = verdict[d * n + i];
        const t = tutorOf[i];
        if (v < 0) {
          if (g >= 0) labelledUnjudged[t]++;
          continue;
        }
        if (g >= 0) {
          y[t].push(table[g]);
          yhat[t].push(table[v]);
        } else yhatU[t].push(table[v]);
      }
      for (let t = 0; t < T; t++) {
        if (y[t].length + yhatU[t].length + labelledUnjudged[t] === 0) continue;
        const r = ppiMean(y[t], yhat[t], yhatU[t]);
        cells.push({
          model: frame.tutors[t],
          criterion: frame.dimensions[d].id,
          lenient: isLenient,
          labelled: y[t].length,
          unlabelled: yhatU[t].length,
          labelledUnjudged: labelledUnjudged[t],
          humanOnly: certStat(r.classical.estimate),
          judgeOnly: certStat(r.judgeOnly.estimate),
          corrected: certStat(r.ppiPlusPlus.estimate),
          lambda: certStat(r.ppiPlusPlus.lambda),
          effectiveLabels: certStat(r.effectiveLabels),
          intervals: {
            humanOnly: certInterval('normal', r.classical.ci),
            judgeOnly: certInterval('normal', r.judgeOnly.ci),
            corrected: certInterval('normal', r.ppiPlusPlus.ci),
          },
        });
      }
    }
  }
  return cells;
}

/* ----- hybrid ----- */

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
});

export type RubricHybridOptions = Omit<z.input<typeof rubricHybridOptions>, 'lenient'> & { lenient?: boolean | string };

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

/** Padó's plan on the items of `items` (all when null) from codes of one dimension. */
function planOn(gold: Int8Array, verdict: Int8Array, labels: string[], target: number, keep: (i: number) => boolean): HybridPlanDto {
  const q = labels.length;
  const confusion = Array.from({ length: q }, () => new Array<number>(q).fill(0));
  let unjudged = 0;
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i];
    if (g < 0 || !keep(i)) continue;
    const v = verdict[i];
    if (v < 0) unjudged++;
    else confusion[g][v]++;
  }
  return hybridPlanDto(confusion, labels, target, unjudged);
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
  const all = () => true;
  return {
    studyId,
    kind: 'rubric',
    judge: run.name,
    sample: o.sample,
    criterion: frame.dimensions[d].id,
    lenient: o.lenient,
    target: o.target,
    labels: codes.labels,
    ...planOn(codes.gold, codes.verdict, codes.labels, o.target, all),
    byModel: frame.tutors.map((model, t) => ({
      model,
      ...planOn(codes.gold, codes.verdict, codes.labels, o.target, (i) => frame.tutorOf[i] === t),
    })),
    byCriterion: frame.dimensions.map((dim, e) => {
      const folded = o.lenient && frame.lenient[e] !== null;
      const c = planCodes(frame, e, gold, verdict, folded);
      return { criterion: dim.id, name: dim.name, lenient: folded, ...planOn(c.gold, c.verdict, c.labels, o.target, all) };
    }),
  };
}
