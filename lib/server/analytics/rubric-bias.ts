import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import { rubricJudgeSamples } from '@/db/queries/rubric-analytics';
import { firstPreference, lengthBias } from '@/lib/stats';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { replyLengths } from './bias';
import { judgeCalibration, judgeCalibrationFromConfidence } from './calibration';
import { loadRubricConfidences } from './confidences';
import { certInterval, certStat } from './corrected-leaderboard';
import type { DiscordanceDto, JudgeCalibrationDto, LeniencyDto, RubricBiasReportDto, RubricLengthBiasDto } from './dto';
import { GROUND_TRUTH_GRADER } from './leaderboard';
import {
  type RubricFrame,
  analysableRubricStudy,
  lenientSchema,
  loadRubricFrame,
  loadRubricGold,
  loadRubricJudge,
  sampleSchema,
} from './rubric-data';
import { dimensionDtos } from './rubric-data';

const optionsSchema = z.object({ sample: sampleSchema, lenient: lenientSchema });

export type RubricBiasOptions = { sample?: number | string; lenient?: boolean | string };

/** Outcome codes handed to the length-bias fit: the desired label is a "win", any other a "loss". */
const DESIRED = 1;
const OTHER = 0;
const OUTCOMES = { win: DESIRED, lose: OTHER, tie: -2 };

/** For each dimension, which label codes count as desired: the desired label, or every label folding to it. */
function desiredCodes(frame: RubricFrame, lenient: boolean): Uint8Array[] {
  return frame.dimensions.map((dim, d) => {
    const want = frame.desired[d];
    const map = lenient ? frame.lenient[d] : null;
    return Uint8Array.from(dim.labels, (_, l) => ((map ? map[l] === map[want] : l === want) ? 1 : 0));
  });
}

function discordance(count: number, discordant: number): DiscordanceDto {
  const f = firstPreference(count, discordant, 'no_items');
  return { count, discordant, rate: certStat(f.rate), pValue: certStat(f.binomPValue), interval: certInterval('wilson', f.wilson95) };
}

/**
 * Biases of the graders of a rubric study, per dimension: each judge run's leniency against the ground truth on
 * the same replies (its share of the desired label beside the ground truth's, and McNemar's exact test on the
 * replies where the two differ), and the length bias of the ground truth and of every judge run (the share of the
 * desired label by fifth of the reply length, and the logistic slope of the desired label on ln(1 + length)).
 * "Desired" is the dimension's desired label, or with `lenient` every label its lenient map folds into it (a
 * dimension without a map stays strict). One
 * judge sample at a time — except the calibration of each run with several samples, which reads them all. Leads and
 * admins only.
 */
export function rubricBiasReport(actor: Actor, studyId: number, opts: RubricBiasOptions = {}): RubricBiasReportDto {
  const db = getDb();
  const study = analysableRubricStudy(db, actor, studyId);
  const o = parseInput(optionsSchema, opts);
  const frame = loadRubricFrame(db, study);
  const { n, D } = frame;
  const wanted = desiredCodes(frame, o.lenient);
  const gold = loadRubricGold(db, frame).gold;
  const all = aq.judgeRuns(db, studyId);
  const samples = [...new Set(all.flatMap((r) => rubricJudgeSamples(db, r.id)))].sort((a, b) => a - b);
  const runs = all.map((r) => ({ name: r.name, verdict: loadRubricJudge(db, frame, r, o.sample, true) }));

  const leniency: LeniencyDto[] = [];
  for (const run of runs) {
    for (let d = 0; d < D; d++) {
      let pairs = 0;
      let judgeDesired = 0;
      let goldDesired = 0;
      let judgeOnly = 0;
      let goldOnly = 0;
      for (let i = 0; i < n; i++) {
        const g = gold[d * n + i];
        const v = run.verdict[d * n + i];
        if (g < 0 || v < 0) continue;
        pairs++;
        const gw = wanted[d][g];
        const vw = wanted[d][v];
        judgeDesired += vw;
        goldDesired += gw;
        if (vw && !gw) judgeOnly++;
        if (gw && !vw) goldOnly++;
      }
      if (pairs === 0) continue;
      leniency.push({
        judge: run.name,
        criterion: frame.dimensions[d].id,
        n: pairs,
        judgeDesired,
        groundTruthDesired: goldDesired,
        judgeShare: { value: judgeDesired / pairs },
        groundTruthShare: { value: goldDesired / pairs },
        difference: { value: (judgeDesired - goldDesired) / pairs },
        judgeOnly,
        groundTruthOnly: goldOnly,
        judgeMoreLenient: discordance(judgeOnly, judgeOnly + goldOnly),
      });
    }
  }

  const lengthOf = replyLengths(db, studyId, frame.items).a;
  const graders = [{ name: GROUND_TRUTH_GRADER, codes: gold }, ...runs.map((r) => ({ name: r.name, codes: r.verdict }))];
  const length: RubricLengthBiasDto[] = [];
  for (const grader of graders) {
    for (let d = 0; d < D; d++) {
      const lengths: number[] = [];
      const outcomes: number[] = [];
      for (let i = 0; i < n; i++) {
        const code = grader.codes[d * n + i];
        if (code < 0 || Number.isNaN(lengthOf[i])) continue;
        lengths.push(lengthOf[i]);
        outcomes.push(wanted[d][code] ? DESIRED : OTHER);
      }
      if (!lengths.length) continue;
      // With every length ≥ 0 the fit's predictor sign(d)·ln(1 + |d|) is ln(1 + length).
      const r = lengthBias(lengths, outcomes, { codes: OUTCOMES });
      length.push({
        grader: grader.name,
        criterion: frame.dimensions[d].id,
        n: r.n,
        desired: outcomes.reduce((s, x) => s + x, 0),
        slope: certStat(r.slope),
        slopeSe: certStat(r.slopeSe),
        pValue: certStat(r.pValue),
        intervals: { slope: certInterval('wald', r.slopeCi95) },
        bins:
          r.bins?.map((b) => ({
            bin: b.bin,
            lowerEdge: b.lowerEdge,
            upperEdge: b.upperEdge,
            n: b.n,
            desired: b.wins,
            share: certStat(b.winShare),
          })) ?? null,
      });
    }
  }

  // The judge's own confidence where its file gave one; else every sample of a run is a verdict of its own on the same
  // reply, and the share of the modal one is its confidence (strict labels: a lenient fold would hide the
  // disagreements it merges).
  const calibration: JudgeCalibrationDto[] = [];
  const uncalibrated: string[] = [];
  for (const [k, r] of all.entries()) {
    const have = rubricJudgeSamples(db, r.id);
    const verdicts = have.length > 1 ? have.map((s) => loadRubricJudge(db, frame, r, s, true)) : [];
    // The judge's own confidences of the sample shown, where its file gave them.
    const confidence = loadRubricConfidences(db, frame, r.id, o.sample);
    let any = false;
    for (let d = 0; d < D; d++) {
      const at = d * n;
      const { id, labels } = frame.dimensions[d];
      const g = gold.subarray(at, at + n);
      const cal =
        judgeCalibrationFromConfidence(r.name, id, labels, g, runs[k].verdict.subarray(at, at + n), confidence.subarray(at, at + n)) ??
        (verdicts.length ? judgeCalibration(r.name, id, labels, g, (i) => verdicts.map((v) => v[at + i])) : null);
      if (cal) {
        calibration.push(cal);
        any = true;
      }
    }
    if (!any) uncalibrated.push(r.name);
  }

  return {
    studyId,
    kind: 'rubric',
    sample: o.sample,
    samples,
    lenient: o.lenient,
    dimensions: dimensionDtos(frame),
    leniency,
    length,
    ...(lengthOf.every((x) => Number.isNaN(x)) ? { lengthReason: 'no_reply_text' as const } : {}),
    calibration,
    uncalibrated,
  };
}
