import 'server-only';
import { getDb } from '@/db/client';
import { ALL_KINDS } from '@/lib/kinds/registry';
import { type LengthBias, type LengthBin, type OutcomeCodes, lengthBias } from '@/lib/stats';
import type { StudyKind } from '@/lib/validation/labels';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { staffStudyOfKind } from '../review/access';
import { BIAS_BY_KIND, type BiasKindPart, type BiasReportName } from './bias-by-kind';
import { judgeCalibration, judgeCalibrationFromConfidence } from './calibration';
import { certInterval, certStat } from './corrected-leaderboard';
import type { IntervalDto, JudgeCalibrationDto, ReportDtos, StatDto } from './dto';
import { GROUND_TRUTH_GRADER } from './leaderboard';

/*
 * The bias report, one core for every kind of study. What every kind measures is written here: the length bias of
 * the ground truth and of every judge run (a logistic slope over bins of a length measure) and the calibration of
 * the judges that gave a confidence or several verdicts per item. What only one kind measures — a pairwise study's
 * position bias, a rubric study's leniency — and how a kind's study is read into the shape below are the kind's
 * part (`bias-by-kind.ts`), which also lays out the kind's report.
 */

/**
 * A study's graders on one layout for every kind: codes criterion-major (`[c * n + i]`, −1 = no label), each
 * criterion (or dimension) with its own label set.
 */
export type BiasSource = {
  criteria: readonly { id: string; labels: readonly string[] }[];
  /** Number of items. */
  n: number;
  gold: ArrayLike<number>;
  runs: readonly BiasRun[];
  /** The length measure of each item the fit is on (NaN: no text to measure). */
  lengths: ArrayLike<number>;
  /** The outcome the length fit reads for a label code on criterion c (one of `outcomes`' codes). */
  outcome: (c: number, code: number) => number;
  outcomes?: OutcomeCodes;
};

export type BiasRun = {
  name: string;
  /** The verdict that counts, per criterion and item. */
  verdict: ArrayLike<number>;
  /** The run's own confidence in that verdict, NaN where it gave none. */
  confidence: ArrayLike<number>;
  /** Every verdict the run gave at `c * n + i` (several orders or samples), or null when it gave one per item. */
  samples: ((at: number) => readonly number[]) | null;
};

/** A length-bias row: the fit's figures around what the kind counts (decisive items, the desired label). */
export type LengthFitDto<C, B> = { grader: string; criterion: string; n: number } & C & {
    slope: StatDto;
    slopeSe: StatDto;
    pValue: StatDto;
    intervals: { slope: IntervalDto };
    bins: ({ bin: number; lowerEdge: number; upperEdge: number; n: number } & B)[] | null;
  };

/** How a kind writes the counts of a length fit and of its bins (from the fit and the outcomes it was fed). */
export type LengthCounts<C, B> = { counts: (r: LengthBias, outcomes: readonly number[]) => C; bin: (b: LengthBin) => B };

/**
 * What every kind's report holds beside its own tables, handed to the kind to lay out: the length-bias rows (with
 * the kind's counts), and the calibration of the judges.
 */
export type BiasShared = {
  length: <C, B>(count: LengthCounts<C, B>) => LengthFitDto<C, B>[];
  calibration: JudgeCalibrationDto[];
  uncalibrated: string[];
};

/**
 * The length bias of every grader (the ground truth first, then the judge runs) on every criterion with a label and
 * a length to measure: the logistic slope of the outcome on the length measure and the outcome's share by fifth.
 */
export function lengthFits<C, B>(src: BiasSource, count: LengthCounts<C, B>): LengthFitDto<C, B>[] {
  const { n } = src;
  const graders = [{ name: GROUND_TRUTH_GRADER, codes: src.gold }, ...src.runs.map((r) => ({ name: r.name, codes: r.verdict }))];
  const out: LengthFitDto<C, B>[] = [];
  for (const grader of graders) {
    src.criteria.forEach((crit, c) => {
      const x: number[] = [];
      const outcomes: number[] = [];
      for (let i = 0; i < n; i++) {
        const code = grader.codes[c * n + i];
        if (code < 0 || Number.isNaN(src.lengths[i])) continue;
        x.push(src.lengths[i]);
        outcomes.push(src.outcome(c, code));
      }
      if (!x.length) return;
      const r = lengthBias(x, outcomes, src.outcomes ? { codes: src.outcomes } : {});
      out.push({
        grader: grader.name,
        criterion: crit.id,
        n: r.n,
        ...count.counts(r, outcomes),
        slope: certStat(r.slope),
        slopeSe: certStat(r.slopeSe),
        pValue: certStat(r.pValue),
        intervals: { slope: certInterval('wald', r.slopeCi95) },
        bins: r.bins?.map((b) => ({ bin: b.bin, lowerEdge: b.lowerEdge, upperEdge: b.upperEdge, n: b.n, ...count.bin(b) })) ?? null,
      });
    });
  }
  return out;
}

/**
 * The calibration of every judge run on every criterion: from its own confidences where its file gave them, else
 * from its several verdicts per item (the share of the modal one is its confidence). A run measured nowhere is
 * named in `uncalibrated`.
 */
export function judgeCalibrations(src: BiasSource): Pick<BiasShared, 'calibration' | 'uncalibrated'> {
  const { n } = src;
  const calibration: JudgeCalibrationDto[] = [];
  const uncalibrated: string[] = [];
  for (const run of src.runs) {
    let any = false;
    src.criteria.forEach(({ id, labels }, c) => {
      const at = c * n;
      const g = subarray(src.gold, at, n);
      const samples = run.samples;
      const cal =
        judgeCalibrationFromConfidence(run.name, id, labels, g, subarray(run.verdict, at, n), subarray(run.confidence, at, n)) ??
        (samples ? judgeCalibration(run.name, id, labels, g, (i) => samples(at + i)) : null);
      if (cal) {
        calibration.push(cal);
        any = true;
      }
    });
    if (!any) uncalibrated.push(run.name);
  }
  return { calibration, uncalibrated };
}

const subarray = (a: ArrayLike<number>, at: number, n: number): ArrayLike<number> =>
  ArrayBuffer.isView(a) ? (a as unknown as Float64Array).subarray(at, at + n) : Array.prototype.slice.call(a, at, at + n);

/** The kind of study a bias report serves, as the kinds' reports facets say. */
function kindOf(report: BiasReportName): StudyKind {
  const kind = ALL_KINDS.find((k) => k.reports.byRole.bias === report);
  if (!kind) throw new Error(`no kind of study has the bias report ${report}`);
  return kind.id;
}

/**
 * The biases of a study's graders, as its kind measures them: the kind's own tables (a pairwise study's position
 * bias of its judges and reviewers, a rubric study's leniency of its judges), the length bias of the ground truth
 * and of every judge run, and the calibration of judges with their own confidences or several verdicts per item.
 * `report` is the bias report the study's kind gets; a study of another kind is refused. Leads and admins only.
 */
export function biasReport<R extends BiasReportName>(
  actor: Actor,
  studyId: number,
  report: R,
  opts: { sample?: number | string; lenient?: boolean | string } = {},
): ReportDtos[R] {
  const db = getDb();
  const kind = kindOf(report);
  const study = staffStudyOfKind(db, actor, studyId, kind, 'This report');
  const part = (BIAS_BY_KIND as Partial<Record<StudyKind, BiasKindPart<BiasReportName>>>)[kind];
  if (part?.report !== report) throw new Error(`the bias part of ${kind} studies is not ${report}`);
  const { source, report: layOut } = part.load(db, study, parseInput(part.options, opts));
  // The kind named by the report's facet entry lays out that report.
  return layOut({ length: (count) => lengthFits(source, count), ...judgeCalibrations(source) }) as ReportDtos[R];
}

/** Position bias's figure, also the annotator report's (annotators.ts). */
export { firstPreferenceDto } from './bias-position';
