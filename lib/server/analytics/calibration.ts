import 'server-only';
import { type Maybe, type ReliabilityBin, calibration } from '@/lib/stats';
import type { JudgeCalibrationDto, ReliabilityBinDto, StatDto } from './dto';

/*
 * Calibration of a judge that gives a confidence per verdict or several verdicts per item (STATS-3 part D), for every
 * kind of study: the kind's bias report hands over the judge's confidences, or the samples of each item (a pairwise
 * run's two reply orders, a rubric run's samples), as codes into its label set, and gets Brier scores, ECE over
 * equal-width and equal-mass bins and the reliability diagram's bins back, from lib/stats.
 */

/** Equal-width bins of the reliability diagram. With two samples per item the confidence is ½ or 1: most bins stay empty. */
export const CALIBRATION_BINS = 10;

const maybe = (m: Maybe<number>): StatDto => (m.value === null ? { value: null, reason: m.reason } : { value: m.value });

const binDto = (b: ReliabilityBin): ReliabilityBinDto => ({
  bin: b.bin,
  lower: b.lower,
  upper: b.upper,
  n: b.n,
  meanConfidence: maybe(b.meanConfidence),
  accuracy: maybe(b.accuracy),
  gap: maybe(b.gap),
});

type CalibrationResult = ReturnType<typeof calibration>;

function calibrationDto(
  judge: string,
  criterion: string,
  source: JudgeCalibrationDto['source'],
  k: number[],
  r: CalibrationResult,
): JudgeCalibrationDto {
  return {
    judge,
    criterion,
    source,
    n: r.n,
    samplesMin: k.reduce((a, b) => Math.min(a, b)),
    samplesMax: k.reduce((a, b) => Math.max(a, b)),
    bins: CALIBRATION_BINS,
    accuracy: maybe(r.accuracy),
    meanConfidence: maybe(r.meanConfidence),
    brierTopLabel: maybe(r.brierTopLabel),
    brierMulticlass: maybe(r.brierMulticlass),
    ece: maybe(r.ece),
    adaptiveEce: maybe(r.adaptiveEce),
    reliability: (r.reliability.value ?? []).map(binDto),
    adaptiveReliability: (r.adaptiveReliability.value ?? []).map(binDto),
  };
}

/**
 * The calibration of a judge run's own confidences on one criterion (a verbalised confidence per verdict), or null
 * when no verdict on an item with ground truth has one. `confidence[i]` is NaN where the verdict `verdict[i]` has none.
 */
export function judgeCalibrationFromConfidence(
  judge: string,
  criterion: string,
  labels: readonly string[],
  gold: ArrayLike<number>,
  verdict: ArrayLike<number>,
  confidence: ArrayLike<number>,
): JudgeCalibrationDto | null {
  const predicted: string[] = [];
  const conf: number[] = [];
  const itemGold: string[] = [];
  for (let i = 0; i < gold.length; i++) {
    if (gold[i] < 0 || verdict[i] < 0 || Number.isNaN(confidence[i])) continue;
    predicted.push(labels[verdict[i]]);
    conf.push(confidence[i]);
    itemGold.push(labels[gold[i]]);
  }
  if (!predicted.length) return null;
  const r = calibration({ labels, gold: itemGold, predicted, confidence: conf }, { nBins: CALIBRATION_BINS });
  return calibrationDto(judge, criterion, 'confidence', [1], r);
}

/**
 * The calibration of one judge run on one criterion, or null when no item with ground truth has two samples or
 * more. `samples(i)` gives item i's verdict codes (−1 entries are skipped), `gold[i]` its ground truth (−1: none).
 */
export function judgeCalibration(
  judge: string,
  criterion: string,
  labels: readonly string[],
  gold: ArrayLike<number>,
  samples: (i: number) => readonly number[],
): JudgeCalibrationDto | null {
  const itemSamples: string[][] = [];
  const itemGold: string[] = [];
  for (let i = 0; i < gold.length; i++) {
    if (gold[i] < 0) continue;
    const s = samples(i).filter((c) => c >= 0);
    // One verdict says nothing about the judge's confidence: only items it judged more than once are measured.
    if (s.length < 2) continue;
    itemSamples.push(s.map((c) => labels[c]));
    itemGold.push(labels[gold[i]]);
  }
  if (!itemSamples.length) return null;
  const r = calibration({ labels, gold: itemGold, samples: itemSamples }, { nBins: CALIBRATION_BINS });
  return calibrationDto(
    judge,
    criterion,
    'samples',
    itemSamples.map((x) => x.length),
    r,
  );
}
