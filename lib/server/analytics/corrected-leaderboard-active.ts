import 'server-only';
import type { Db } from '@/db/client';
import * as drawsQ from '@/db/queries/active-draws';
import { activeMean, ppiOutcomes, type TiePolicy } from '@/lib/stats';
import type { ItemIndex } from '../packs/item-index';
import type { ActiveDrawInfoDto, IntervalDto, Reason, StatDto } from './dto';

/*
 * The inverse-probability-weighted estimator (Zrnic & Candès 2024, `activeMean`) for labels that came from an
 * active draw (`review-queue-active.ts`). The latest stored draw of a run and criterion defines the design: an item
 * of its pool was labelled with probability π_i (stored); an item outside the pool that has ground truth was
 * labelled before the draw and counts with π = 1, so conditionally on what came before the estimate is unbiased
 * (decision 0032).
 */

/** The latest draw of a run on a criterion, as π and drawn flags per study item (π = 0: not in the pool). */
export type ActiveDesign = {
  draw: drawsQ.ActiveDrawRow;
  pi: Float64Array;
  drawn: Uint8Array;
  pool: number;
};

export function latestDesign(db: Db, studyId: number, items: ItemIndex, runId: number, criterion: string): ActiveDesign | null {
  const draws = drawsQ.drawsOf(db, studyId, runId, criterion);
  if (!draws.length) return null;
  const draw = draws[draws.length - 1];
  const pi = new Float64Array(items.n);
  const drawn = new Uint8Array(items.n);
  let pool = 0;
  for (const [itemId, p, d] of drawsQ.drawItems(db, draw.id)) {
    const i = items.of(itemId);
    if (i < 0) continue;
    pi[i] = p;
    drawn[i] = d;
    pool++;
  }
  return { draw, pi, drawn, pool };
}

export type ActiveCell = { estimate: StatDto; interval: IntervalDto; info: ActiveDrawInfoDto };

/**
 * The active estimate of the mean label over `items` (study item indices): `yhat[k]` is the prediction for
 * `items[k]`, `label(i)` the ground truth's value of item i (null: none yet). A drawn item without ground truth yet
 * (or an item outside the pool that has none) is counted as unlabelled and reported as pending: the estimate is
 * exact once nothing is pending.
 */
export function activeEstimate(
  items: readonly number[],
  yhat: readonly number[],
  label: (i: number) => number | null,
  design: ActiveDesign,
): ActiveCell {
  const xi: number[] = [];
  const pi: number[] = [];
  const y: (number | null)[] = [];
  let drawnLabelled = 0;
  let pending = 0;
  let labelledBefore = 0;
  let drawnCount = 0;
  let pool = 0;
  for (const i of items) {
    const value = label(i);
    const labelled = value !== null;
    if (design.pi[i] > 0) {
      pool++;
      pi.push(design.pi[i]);
      if (design.drawn[i]) {
        drawnCount++;
        if (labelled) drawnLabelled++;
        else pending++;
      }
      // Labels of items the draw did not choose are not part of the design: the judge stands for them.
      const used = design.drawn[i] === 1 && labelled;
      xi.push(used ? 1 : 0);
      y.push(used ? value : null);
    } else {
      pi.push(1);
      if (labelled) labelledBefore++;
      else pending++;
      xi.push(labelled ? 1 : 0);
      y.push(value);
    }
  }
  const info: ActiveDrawInfoDto = {
    pool,
    drawn: drawnCount,
    drawnLabelled,
    pending,
    labelledBefore,
    budget: design.draw.budget,
    tau: design.draw.tau,
    source: design.draw.source,
  };
  if (!items.length) {
    return {
      estimate: { value: null, reason: 'no_items' },
      interval: { method: 'normal', lower: null, upper: null, reason: 'no_items' },
      info,
    };
  }
  const r = activeMean({
    yhat,
    budget: design.draw.budget,
    tau: design.draw.tau,
    xiActive: xi,
    xiUniform: xi.map(() => 0),
    y,
    pi,
  });
  const a = r.active;
  // activeMean's only undefined cases: no item, or one (no standard error).
  const why = (reason: string): Reason => (reason === 'no_items' ? 'no_items' : 'too_few_items');
  const estimate: StatDto = a.estimate.value === null ? { value: null, reason: why(a.estimate.reason) } : { value: a.estimate.value };
  const interval: IntervalDto =
    a.ci.value === null
      ? { method: 'normal', lower: null, upper: null, reason: why(a.ci.reason) }
      : { method: 'normal', lower: a.ci.value[0], upper: a.ci.value[1] };
  return { estimate, interval, info };
}

/** The active estimate of a win rate under a tie policy: ŷ the verdict's score, y the ground truth's. */
export function activeWinRate(items: readonly number[], gold: Int8Array, verdict: Int8Array, design: ActiveDesign, policy: TiePolicy) {
  const score = (code: number) => ppiOutcomes([code], { kind: 'pairwise', policy })[0];
  return activeEstimate(
    items,
    items.map((i) => score(verdict[i])),
    (i) => (gold[i] >= 0 ? score(gold[i]) : null),
    design,
  );
}
