import 'server-only';
import { type Db, getDb } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import * as cq from '@/db/queries/certify';
import { type FirstPreference, PAIRWISE_LABELS, firstPreference, judgePositionBias, lengthBias } from '@/lib/stats';
import type { Actor } from '../actor';
import type { ItemIndex } from '../packs/item-index';
import { judgeCalibration, judgeCalibrationFromConfidence } from './calibration';
import { certInterval, certStat } from './corrected-leaderboard';
import { loadVerdictConfidences } from './confidences';
import { type Frame, analysableStudy, loadFrame, loadGold, loadHumanLabels, loadJudge } from './data';
import type { BiasReportDto, FirstPreferenceDto, JudgeCalibrationDto, HumanPositionDto, JudgePositionDto, LengthBiasDto } from './dto';
import { GROUND_TRUTH_GRADER } from './leaderboard';

const LOSE = PAIRWISE_LABELS.indexOf('lose');
const TIE = PAIRWISE_LABELS.indexOf('tie');
const WIN = PAIRWISE_LABELS.indexOf('win');

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

export function firstPreferenceDto(f: FirstPreference): FirstPreferenceDto {
  return {
    count: f.count,
    decisive: f.decisive,
    rate: certStat(f.rate),
    pValue: certStat(f.binomPValue),
    interval: certInterval('wilson', f.wilson95),
  };
}

/**
 * Biases of the graders of a pairwise study: each judge run's position bias per criterion where it judged both
 * orders; the reviewers' preference for the reply shown first, from the display order stored with every label
 * given on the review screen, per reviewer and pooled; and the length bias of the ground truth and of every judge
 * run (win shares by quintile of the length difference, logistic slope). Leads and admins only.
 */
export function biasReport(actor: Actor, studyId: number): BiasReportDto {
  const db = getDb();
  const study = analysableStudy(db, actor, studyId);
  const frame = loadFrame(db, study);
  const { n } = frame;
  const runs = aq.judgeRuns(db, studyId).map((r) => ({ id: r.id, name: r.name, codes: loadJudge(db, frame, r.id) }));

  const judgePosition: JudgePositionDto[] = [];
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
      judgePosition.push({
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

  const humans = loadHumanLabels(db, frame);
  const shown = displayOrders(db, frame, humans.slots);
  const humanPosition: HumanPositionDto[] = [];
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
    humanPosition.push(dto(U, null));
    // humans.users is sorted by username, as the per-reviewer rows are listed.
    for (let u = 0; u < U; u++) if (verdicts[u] > 0) humanPosition.push(dto(u, humans.users[u]));
  });

  const lengths = replyLengths(db, studyId, frame.items);
  // d = len(a) − len(b); NaN where either reply has no text.
  const lengthDiff = lengths.a.map((x, i) => x - lengths.b[i]);
  const gold = loadGold(db, frame).gold;
  const graders = [{ name: GROUND_TRUTH_GRADER, codes: gold }, ...runs.map((r) => ({ name: r.name, codes: r.codes.verdict }))];
  const length: LengthBiasDto[] = [];
  for (const grader of graders) {
    frame.criteria.forEach((crit, c) => {
      const d: number[] = [];
      const labels: number[] = [];
      for (let i = 0; i < n; i++) {
        const code = grader.codes[c * n + i];
        if (code < 0 || Number.isNaN(lengthDiff[i])) continue;
        d.push(lengthDiff[i]);
        labels.push(code);
      }
      if (!d.length) return;
      const r = lengthBias(d, labels);
      length.push({
        grader: grader.name,
        criterion: crit.id,
        n: r.n,
        nDecisive: r.nDecisive,
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
            wins: b.wins,
            ties: b.ties,
            losses: b.losses,
            winShare: certStat(b.winShare),
            winShareTiesHalf: certStat(b.winShareTiesHalf),
            winShareExclTies: certStat(b.winShareExclTies),
          })) ?? null,
      });
    });
  }

  // The judge's own confidence where its file gave one; else, where it judged items in both orders, its two verdicts
  // there: the share of the modal one is its confidence.
  const calibration: JudgeCalibrationDto[] = [];
  const uncalibrated: string[] = [];
  for (const run of runs) {
    let any = false;
    const confidence = loadVerdictConfidences(db, frame, run.id, run.codes);
    frame.criteria.forEach((crit, c) => {
      const at = c * n;
      const g = gold.subarray(at, at + n);
      const cal =
        judgeCalibrationFromConfidence(run.name, crit.id, PAIRWISE_LABELS, g, run.codes.verdict.subarray(at, at + n), confidence.subarray(at, at + n)) ??
        judgeCalibration(run.name, crit.id, PAIRWISE_LABELS, g, (i) => [run.codes.original[at + i], run.codes.swapped[at + i]]);
      if (cal) {
        calibration.push(cal);
        any = true;
      }
    });
    if (!any) uncalibrated.push(run.name);
  }

  return {
    studyId,
    judgePosition,
    humanPosition,
    ...(humanPosition.length ? {} : { humanPositionReason: 'no_display_order' as const }),
    length,
    calibration,
    uncalibrated,
  };
}
