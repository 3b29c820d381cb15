import 'server-only';
import { type TieSplit, judgeVsAnnotators, positionConsistency } from '@/lib/stats';
import { type Frame, type HumanLabels, type JudgeCodes, statDto, wilson } from './data';
import type { PositionConsistencyDto, VoteAgreementDto } from './dto';

/*
 * What only a pairwise study's alignment report adds to the shared core (alignment.ts): the judge's votes beside
 * each reviewer's, and the judge's consistency when the replies are shown in both orders.
 */

function voteAgreement(split: TieSplit): VoteAgreementDto {
  const { withTies, withoutTies } = split;
  return {
    n: withTies.total,
    agreement: statDto(withTies.rate),
    nNoTies: withoutTies.total,
    agreementNoTies: statDto(withoutTies.rate),
    intervals: { agreement: wilson(withTies.agree, withTies.total), agreementNoTies: wilson(withoutTies.agree, withoutTies.total) },
  };
}

/**
 * The judge's votes beside the humans' on every (item, criterion) the judge gave a verdict on and at least one
 * person labelled: per annotator, all votes together, and human against human on the same keys (the ceiling).
 */
export function votes(frame: Frame, human: HumanLabels, verdict: Int8Array) {
  const { n } = frame;
  const S = human.slots;
  let K = 0;
  human.byCriterion.forEach(({ items }, c) => {
    for (let r = 0; r < items.length; r++) if (verdict[c * n + items[r]] >= 0) K++;
  });
  const judge = new Int8Array(K);
  const slots = Array.from({ length: S }, () => new Int8Array(K).fill(-1));
  // Each annotator's votes beside the judge's: counted first, then written into arrays of that size.
  const perUserCount = new Int32Array(human.users.length);
  for (let c = 0; c < human.byCriterion.length; c++) {
    const { items, codes } = human.byCriterion[c];
    for (let r = 0; r < items.length; r++) {
      const i = items[r];
      if (verdict[c * n + i] < 0) continue;
      for (let s = 0; s < S; s++) {
        const u = human.slotUser[i * S + s];
        if (codes[r * S + s] >= 0 && u >= 0) perUserCount[u]++;
      }
    }
  }
  const perUser = Array.from(perUserCount, (m) => ({ judge: new Int8Array(m), human: new Int8Array(m), filled: 0 }));
  let k = 0;
  for (let c = 0; c < human.byCriterion.length; c++) {
    const { items, codes } = human.byCriterion[c];
    for (let r = 0; r < items.length; r++) {
      const i = items[r];
      const v = verdict[c * n + i];
      if (v < 0) continue;
      judge[k] = v;
      for (let s = 0; s < S; s++) {
        const x = codes[r * S + s];
        slots[s][k] = x;
        const u = human.slotUser[i * S + s];
        if (x >= 0 && u >= 0) {
          const p = perUser[u];
          p.judge[p.filled] = v;
          p.human[p.filled] = x;
          p.filled++;
        }
      }
      k++;
    }
  }
  const all = judgeVsAnnotators(judge, slots);
  const byAnnotator = perUser.flatMap((p, u) =>
    p.judge.length === 0
      ? []
      : [
          {
            annotator: human.users[u],
            ...voteAgreement(judgeVsAnnotators(p.judge, [p.human]).judgeVsHuman),
          },
        ],
  );
  return { byAnnotator, judgeVsHuman: voteAgreement(all.judgeVsHuman), humanVsHuman: voteAgreement(all.humanVsHuman) };
}

export function consistency(codes: JudgeCodes): PositionConsistencyDto {
  const pc = positionConsistency(codes.original, codes.swapped);
  if (pc.total === 0) return { value: null, reason: 'no_both_orders' };
  return { n: pc.total, consistent: pc.agree, rate: statDto(pc.rate), interval: wilson(pc.agree, pc.total) };
}
