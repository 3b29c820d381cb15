import 'server-only';
import { type Maybe, type ReliabilityBin, calibration } from '@/lib/stats';
import type { JudgeCalibrationDto, ReliabilityBinDto, StatDto } from './dto';

/*
 * Calibration of a judge that gives several verdicts per item (STATS-3 part D), for every kind of study: the kind's
 * bias report hands over the samples of each item (a pairwise run's two reply orders, a rubric run's samples) as
 * codes into its label set, and gets Brier scores, ECE over equal-width and equal-mass bins and the reliability
 * diagram's bins back, from lib/stats.
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
  const k = itemSamples.map((s) => s.length);
  return {
    judge,
    criterion,
    source: 'samples',
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
