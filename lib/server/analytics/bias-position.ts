import 'server-only';
import type { Db } from '@/db/client';
import * as cq from '@/db/queries/certify';
import { type FirstPreference, PAIRWISE_LABELS, firstPreference, judgePositionBias } from '@/lib/stats';
import { certInterval, certStat } from './corrected-leaderboard';
import { type Frame, type JudgeCodes, loadHumanLabels } from './data';
import type { FirstPreferenceDto, HumanPositionDto, JudgePositionDto } from './dto';

/*
 * Position bias, a pairwise study's own part of the bias report (bias-by-kind.ts): does a judge change its verdict
 * when the replies swap places, and do reviewers prefer the reply shown first?
 */

const LOSE = PAIRWISE_LABELS.indexOf('lose');
const TIE = PAIRWISE_LABELS.indexOf('tie');
const WIN = PAIRWISE_LABELS.indexOf('win');

/** A first-shown preference with its Wilson interval and exact binomial p, as the position tables show it. */
export function firstPreferenceDto(f: FirstPreference): FirstPreferenceDto {
  return {
    count: f.count,
    decisive: f.decisive,
    rate: certStat(f.rate),
    pValue: certStat(f.binomPValue),
    interval: certInterval('wilson', f.wilson95),
  };
}

/** Each judge run's position bias per criterion where it judged an item in either order. */
export function judgePosition(frame: Frame, runs: readonly { name: string; codes: JudgeCodes }[]): JudgePositionDto[] {
  const { n } = frame;
  const out: JudgePositionDto[] = [];
  for (const run of runs) {
    frame.criteria.forEach((crit, c) => {
      const items = [];
      for (let i = 0; i < n; i++) {
        const a = run.codes.original[c * n + i];
        const b = run.codes.swapped[c * n + i];
        if (a >= 0 || b >= 0) items.push({ aFirst: a >= 0 ? a : null, bFirst: b >= 0 ? b : null });
      }
      if (!items.length) return;
      const r = judgePositionBias(items);
      out.push({
        judge: run.name,
        criterion: crit.id,
        items: r.items,
        itemsBothOrders: r.itemsBothOrders,
        flips: r.flips,
        reversals: r.reversals,
        flipRate: certStat(r.flipRate),
        reversalRate: certStat(r.reversalRate),
        firstPreferred: firstPreferenceDto(r.firstPreferred),
      });
    });
  }
  return out;
}

/**
 * The order each counting review was shown in, by item index and reviewer slot (`[i * slots + s]`): 0 = reply a
 * shown first, 1 = reply b shown first, −1 = no display order (no review, or labels imported from elsewhere).
 */
function displayOrders(db: Db, frame: Frame, slots: number): Int8Array {
  const shown = new Int8Array(frame.n * slots).fill(-1);
  const text = cq.displayOrderText(db, frame.study.id);
  // `item,slot,swapped/…`: three whole numbers per assignment.
  const f = [0, 0, 0];
  let k = 0;
  for (let p = 0; p <= text.length; p++) {
    const ch = p < text.length ? text.charCodeAt(p) : 47;
    if (ch === 44) k++;
    else if (ch === 47) {
      const i = frame.items.of(f[0]);
      if (i >= 0 && f[1] >= 1 && f[1] <= slots) shown[i * slots + f[1] - 1] = f[2] ? 1 : 0;
      f[0] = f[1] = f[2] = 0;
      k = 0;
    } else f[k] = f[k] * 10 + ch - 48;
  }
  return shown;
}

/**
 * The reviewers' preference for the reply shown first, from the display order stored with every label given on the
 * review screen: per criterion, pooled and then per reviewer (by username).
 */
export function reviewerPosition(db: Db, frame: Frame): HumanPositionDto[] {
  const humans = loadHumanLabels(db, frame);
  const shown = displayOrders(db, frame, humans.slots);
  const out: HumanPositionDto[] = [];
  const S = humans.slots;
  frame.criteria.forEach((crit, c) => {
    const { items, codes } = humans.byCriterion[c];
    // Per reviewer (index into humans.users) and pooled (last): verdicts, decisive verdicts, and those that
    // preferred the reply shown first.
    const U = humans.users.length;
    const verdicts = new Int32Array(U + 1);
    const decisive = new Int32Array(U + 1);
    const first = new Int32Array(U + 1);
    for (let r = 0; r < items.length; r++) {
      const i = items[r];
      for (let s = 0; s < S; s++) {
        const code = codes[r * S + s];
        const order = shown[i * S + s];
        if (code < 0 || order < 0) continue;
        const u = humans.slotUser[i * S + s];
        verdicts[u]++;
        verdicts[U]++;
        if (code === TIE) continue;
        decisive[u]++;
        decisive[U]++;
        // Reply a shown first (order 0) and a won, or b shown first and a lost: the first-shown reply was preferred.
        if ((order === 0 && code === WIN) || (order === 1 && code === LOSE)) {
          first[u]++;
          first[U]++;
        }
      }
    }
    if (verdicts[U] === 0) return;
    const dto = (u: number, reviewer: string | null): HumanPositionDto => ({
      criterion: crit.id,
      reviewer,
      verdicts: verdicts[u],
      firstPreferred: firstPreferenceDto(firstPreference(first[u], decisive[u])),
    });
    out.push(dto(U, null));
    // humans.users is sorted by username, as the per-reviewer rows are listed.
    for (let u = 0; u < U; u++) if (verdicts[u] > 0) out.push(dto(u, humans.users[u]));
  });
  return out;
}
