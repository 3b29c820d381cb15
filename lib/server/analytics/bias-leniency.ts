import 'server-only';
import { firstPreference } from '@/lib/stats';
import { certInterval, certStat } from './corrected-leaderboard';
import type { DiscordanceDto, LeniencyDto } from './dto';
import type { RubricFrame } from './dimension-frame';

/*
 * Leniency, a rubric study's own part of the bias report (bias-by-kind.ts): does a judge give a dimension's desired
 * label more often than the ground truth does, on the same replies?
 */

/** For each dimension, which label codes count as desired: the desired label, or every label folding to it. */
export function desiredCodes(frame: RubricFrame, lenient: boolean): Uint8Array[] {
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
 * Each judge run's leniency per dimension against the ground truth on the replies both labelled: its share of the
 * desired label beside the ground truth's, and McNemar's exact test on the replies where the two differ.
 * Codes are dimension-major (`[d * n + i]`); `wanted[d][code]` is 1 for a desired label.
 */
export function judgeLeniency(
  dimensions: readonly { id: string }[],
  n: number,
  gold: ArrayLike<number>,
  runs: readonly { name: string; verdict: ArrayLike<number> }[],
  wanted: readonly Uint8Array[],
): LeniencyDto[] {
  const out: LeniencyDto[] = [];
  for (const run of runs) {
    dimensions.forEach((dim, d) => {
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
      if (pairs === 0) return;
      out.push({
        judge: run.name,
        criterion: dim.id,
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
    });
  }
  return out;
}
