import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import { ppiMean } from '@/lib/stats';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { correctedValues, rankAgreement } from './corrected-leaderboard';
import { missing, noInterval, wilson } from './data';
import type { RubricCorrectedCellDto, RubricLeaderboardReportDto, RubricLeaderboardRowDto, StatDto } from './dto';
import { GROUND_TRUTH_GRADER } from './leaderboard';
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
 * The leaderboard of a rubric study: each tutor's share of the desired label per dimension from the ground truth and
 * every judge run, with the judge-corrected shares (PPI++) and rank agreement.
 */

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
          ...correctedValues(r, y[t].length),
        });
      }
    }
  }
  return cells;
}
