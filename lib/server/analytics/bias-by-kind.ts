import 'server-only';
import * as z from 'zod';
import type { Db } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import * as cq from '@/db/queries/certify';
import type { StudyRow } from '@/db/queries/studies';
import type { LengthBias, LengthBin } from '@/lib/stats';
import { PAIRWISE_LABELS } from '@/lib/stats';
import type { StudyKind } from '@/lib/validation/labels';
import type { ItemIndex } from '../packs/item-index';
import type { BiasShared, BiasSource } from './bias';
import { desiredCodes, judgeLeniency } from './bias-leniency';
import { judgePosition, reviewerPosition } from './bias-position';
import { loadRubricConfidences, loadVerdictConfidences } from './confidences';
import { certStat } from './corrected-leaderboard';
import { loadFrame, loadGold, loadJudge } from './data';
import type { ReportDtos } from './dto';
import { dimensionDtos, lenientSchema, loadRubricFrame, loadRubricGold, loadRubricJudge, sampleSchema } from './dimension-frame';

/*
 * What the bias report reads per kind of study, in the one map the core (bias.ts) asks: how the kind's study becomes
 * the shared layout (graders' codes, the length measure, the outcome the length fit reads), the tables only the
 * kind has (a pairwise study's position bias, a rubric study's leniency) and the kind's report around the shared
 * figures. A kind without an entry has no bias report (its reports facet names none).
 */

/** A kind's part of the bias report: the report its study gets, the options it reads, and how it reads the study. */
export interface BiasKindPart<R extends keyof ReportDtos, O = unknown> {
  report: R;
  options: z.ZodType<O>;
  /** The study in the shared layout, and the kind's report around the shared figures (in the kind's field order). */
  load(db: Db, study: StudyRow, options: O): { source: BiasSource; report(shared: BiasShared): ReportDtos[R] };
}

/**
 * Each item's reply lengths in characters by item index (`a[i]`, `b[i]`; a rubric item's one reply is `a`), NaN
 * where a reply has no text.
 */
export function replyLengths(db: Db, studyId: number, items: ItemIndex): { a: Float64Array; b: Float64Array } {
  const a = new Float64Array(items.n).fill(NaN);
  const b = new Float64Array(items.n).fill(NaN);
  const text = cq.replyLengthText(db, studyId);
  // `item,lengthA,lengthB/…`, −1 for a reply without text.
  const f = [0, 0, 0];
  let k = 0;
  let negative = false;
  for (let p = 0; p <= text.length; p++) {
    const ch = p < text.length ? text.charCodeAt(p) : 47;
    if (ch === 45) negative = true;
    else if (ch === 44 || ch === 47) {
      if (negative) f[k] = -1;
      negative = false;
      if (ch === 44) {
        k++;
        continue;
      }
      const i = items.of(f[0]);
      if (i >= 0) {
        if (f[1] >= 0) a[i] = f[1];
        if (f[2] >= 0) b[i] = f[2];
      }
      f[0] = f[1] = f[2] = 0;
      k = 0;
    } else f[k] = f[k] * 10 + ch - 48;
  }
  return { a, b };
}

/* ----- pairwise: two replies, three outcomes, two orders ----- */

/** A pairwise length fit counts its decisive items, and its bins a's wins, ties and losses. */
const PAIRWISE_LENGTH = {
  counts: (r: LengthBias) => ({ nDecisive: r.nDecisive }),
  bin: (b: LengthBin) => ({
    wins: b.wins,
    ties: b.ties,
    losses: b.losses,
    winShare: certStat(b.winShare),
    winShareTiesHalf: certStat(b.winShareTiesHalf),
    winShareExclTies: certStat(b.winShareExclTies),
  }),
};

/**
 * A pairwise study: the length measure is d = len(a) − len(b) and the fit reads the verdict itself (a wins, ties,
 * loses); a run's two orders are its several verdicts for calibration. Its own tables: the position bias of every
 * judge run and of the reviewers.
 */
const pairwiseBias: BiasKindPart<'bias', object> = {
  report: 'bias',
  options: z.object({}),
  load(db, study) {
    const frame = loadFrame(db, study);
    const runs = aq.judgeRuns(db, study.id).map((r) => ({ id: r.id, name: r.name, codes: loadJudge(db, frame, r.id) }));
    const judges = judgePosition(frame, runs);
    const humans = reviewerPosition(db, frame);
    const lengths = replyLengths(db, study.id, frame.items);
    const source: BiasSource = {
      criteria: frame.criteria.map((c) => ({ id: c.id, labels: PAIRWISE_LABELS })),
      n: frame.n,
      gold: loadGold(db, frame).gold,
      runs: runs.map((r) => ({
        name: r.name,
        verdict: r.codes.verdict,
        confidence: loadVerdictConfidences(db, frame, r.id, r.codes),
        samples: (at) => [r.codes.original[at], r.codes.swapped[at]],
      })),
      // NaN where either reply has no text.
      lengths: lengths.a.map((x, i) => x - lengths.b[i]),
      outcome: (_, code) => code,
    };
    return {
      source,
      report: (shared) => ({
        studyId: study.id,
        judgePosition: judges,
        humanPosition: humans,
        ...(humans.length ? {} : { humanPositionReason: 'no_display_order' as const }),
        length: shared.length(PAIRWISE_LENGTH),
        calibration: shared.calibration,
        uncalibrated: shared.uncalibrated,
      }),
    };
  },
};

/* ----- rubric: one reply, each dimension's own labels, several samples ----- */

/** Outcome codes handed to the length fit: the desired label is a "win", any other a "loss". */
const DESIRED = 1;
const OTHER = 0;

/** A rubric length fit counts the replies with the desired label, in all and per bin. */
const RUBRIC_LENGTH = {
  counts: (_: LengthBias, outcomes: readonly number[]) => ({ desired: outcomes.reduce((s, x) => s + x, 0) }),
  bin: (b: LengthBin) => ({ desired: b.wins, share: certStat(b.winShare) }),
};

const rubricOptions = z.object({ sample: sampleSchema, lenient: lenientSchema });

/**
 * A rubric study: the length measure is the reply's length (with every length ≥ 0 the fit's sign(d)·ln(1 + |d|) is
 * ln(1 + length)) and the fit reads whether the label is desired — the dimension's desired label, or with `lenient`
 * every label its lenient map folds into it. One judge sample at a time, except the calibration of a run with several
 * samples, which reads them all (strict labels: a lenient fold would hide the disagreements it merges). Its own
 * table: the leniency of every judge run.
 */
const rubricBias: BiasKindPart<'rubric-bias', z.output<typeof rubricOptions>> = {
  report: 'rubric-bias',
  options: rubricOptions,
  load(db, study, o) {
    const frame = loadRubricFrame(db, study);
    const { n } = frame;
    const wanted = desiredCodes(frame, o.lenient);
    const gold = loadRubricGold(db, frame).gold;
    const all = aq.judgeRuns(db, study.id);
    const samples = [...new Set(all.flatMap((r) => aq.rubricJudgeSamples(db, r.id)))].sort((a, b) => a - b);
    const shown = all.map((r) => ({ name: r.name, verdict: loadRubricJudge(db, frame, r, o.sample, true) }));
    const leniency = judgeLeniency(frame.dimensions, n, gold, shown, wanted);
    const lengths = replyLengths(db, study.id, frame.items).a;
    const source: BiasSource = {
      criteria: frame.dimensions,
      n,
      gold,
      runs: all.map((r, k) => {
        const have = aq.rubricJudgeSamples(db, r.id);
        const verdicts = have.length > 1 ? have.map((s) => loadRubricJudge(db, frame, r, s, true)) : [];
        return {
          name: r.name,
          verdict: shown[k].verdict,
          // The judge's own confidences of the sample shown, where its file gave them.
          confidence: loadRubricConfidences(db, frame, r.id, o.sample),
          samples: verdicts.length ? (at) => verdicts.map((v) => v[at]) : null,
        };
      }),
      lengths,
      outcome: (d, code) => (wanted[d][code] ? DESIRED : OTHER),
      outcomes: { win: DESIRED, lose: OTHER, tie: -2 },
    };
    return {
      source,
      report: (shared) => ({
        studyId: study.id,
        kind: 'rubric' as const,
        sample: o.sample,
        samples,
        lenient: o.lenient,
        dimensions: dimensionDtos(frame),
        leniency,
        length: shared.length(RUBRIC_LENGTH),
        ...(lengths.every((x) => Number.isNaN(x)) ? { lengthReason: 'no_reply_text' as const } : {}),
        calibration: shared.calibration,
        uncalibrated: shared.uncalibrated,
      }),
    };
  },
};

/** The bias part of every kind that has a bias report, by kind id. */
export const BIAS_BY_KIND = { pairwise: pairwiseBias, rubric: rubricBias } satisfies Partial<
  Record<StudyKind, BiasKindPart<keyof ReportDtos>>
>;

export type BiasReportName = (typeof BIAS_BY_KIND)[keyof typeof BIAS_BY_KIND]['report'];
