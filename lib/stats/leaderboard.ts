/**
 * KMP-Bench leaderboard aggregates from per-criterion win rates: General-Level Acc, Principle-Level
 * Acc per principle, Overall Acc and Overall Judgement. Computed the same way from gold labels and
 * from any judge run, so the two leaderboards can be compared.
 */
import { type MacroMean, type Stat, type StatLike, defined, macroMean, undefinedStat } from './types';
import { type TiePolicy, type WtlCounts, winRate } from './winrate';

export interface KmpInput {
  /** Win rates of the general criteria. */
  readonly general: readonly StatLike[];
  /** Win rates of each principle's criteria, keyed by principle. */
  readonly principles: Readonly<Record<string, readonly StatLike[]>>;
}

export interface KmpAggregate {
  /** Mean win rate of the general criteria. */
  readonly generalLevelAcc: MacroMean;
  /** Mean win rate of each principle's criteria. */
  readonly principleLevelAcc: Readonly<Record<string, MacroMean>>;
  /** Mean of the principle-level accuracies. */
  readonly meanPrincipleAcc: MacroMean;
  /** ½ (General-Level Acc + mean Principle-Level Acc) — not the mean over all criteria. */
  readonly overallAcc: Stat;
}

/**
 * KMP-Bench aggregation of per-criterion win rates. Undefined criteria (no items) are left out of
 * their mean and counted in `excluded`.
 * Formula: G = mean(general), P_p = mean(criteria of p), Overall = ½ (G + mean_p P_p).
 * @see KMP-Bench (arXiv 2603.02775), Tables 1 and 3; STATS.md §2.9.
 */
export function kmpAggregate(input: KmpInput): KmpAggregate {
  const generalLevelAcc = macroMean(input.general);
  const principleLevelAcc: Record<string, MacroMean> = {};
  for (const [p, rates] of Object.entries(input.principles)) principleLevelAcc[p] = macroMean(rates);
  const meanPrincipleAcc = macroMean(Object.values(principleLevelAcc));
  const overallAcc =
    generalLevelAcc.value === null || meanPrincipleAcc.value === null
      ? undefinedStat('no_defined_values')
      : defined((generalLevelAcc.value + meanPrincipleAcc.value) / 2);
  return { generalLevelAcc, principleLevelAcc, meanPrincipleAcc, overallAcc };
}

/** W/T/L counts of one criterion for one model and one grader (gold or a judge run). */
export type CriterionOutcome = { readonly id: string; readonly counts: WtlCounts } & (
  { readonly kind: 'general' } | { readonly kind: 'principle'; readonly principle: string } | { readonly kind: 'overall' }
);

export interface KmpLeaderboardRow extends KmpAggregate {
  readonly policy: TiePolicy;
  /** Win rate of each criterion under `policy`. */
  readonly perCriterion: Readonly<Record<string, Stat>>;
  /** Win rate of the `overall` verdict (`no_items` when there is none). */
  readonly overallJudgement: Stat;
}

/**
 * One leaderboard row (one model, one grader) from per-criterion W/T/L counts.
 * Formula: r_c = winRate(W_c, T_c, L_c; policy), then `kmpAggregate`; Overall Judgement = r_overall.
 * @see KMP-Bench (arXiv 2603.02775); STATS.md §2.9 and §5.1.
 */
export function kmpLeaderboard(criteria: readonly CriterionOutcome[], opts: { policy?: TiePolicy } = {}): KmpLeaderboardRow {
  const policy = opts.policy ?? 'half';
  const perCriterion: Record<string, Stat> = {};
  const general: Stat[] = [];
  const principles: Record<string, Stat[]> = {};
  let overallJudgement: Stat = undefinedStat('no_items');
  for (const c of criteria) {
    if (Object.prototype.hasOwnProperty.call(perCriterion, c.id)) throw new Error(`criterion ${c.id} appears twice`);
    const r = winRate(c.counts, policy);
    perCriterion[c.id] = r;
    if (c.kind === 'general') general.push(r);
    else if (c.kind === 'principle') (principles[c.principle] ??= []).push(r);
    else overallJudgement = r;
  }
  return { policy, perCriterion, ...kmpAggregate({ general, principles }), overallJudgement };
}
