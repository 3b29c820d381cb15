/** What every report shares: why a value is missing, a value, an interval, the bootstrap, a judge run. */
import type { CertificationReason, Stats3Reason, UndefinedReason } from '@/lib/stats';
import type { JudgeRunRecipeDto } from '../../judges/dto';

/** Why a reported value is missing: the statistics' own reasons plus the ones only a report can know. */
export type Reason =
  | UndefinedReason
  /** Fleiss' κ is reported only when every item of the criterion has the same number of ratings. */
  | 'unequal_ratings'
  /** Position consistency needs a verdict in both orders for the same item and criterion. */
  | 'no_both_orders'
  /** The bootstrap was switched off (0 replicates). */
  | 'not_computed'
  /** The value has no meaning here (e.g. the alignment of the ground truth with itself). */
  | 'not_applicable'
  /** Judge certification and bias statistics (lib/stats, STATS-2). */
  | CertificationReason
  /** The tie policy `exclude` makes a win rate a ratio W/(W + L), not a mean per item: PPI cannot correct it. */
  | 'not_a_mean'
  /** No label was given on Concord's review screen, so no display order is stored (imported labels have none). */
  | 'no_display_order'
  /** Rubric dimensions pooled together have different label sets: only the share of matches is defined. */
  | 'mixed_label_sets'
  /** Calibration and error-bounded acceptance (lib/stats, STATS-3). */
  | Stats3Reason;

/** A reported value: a number, or `null` with the reason (the lib/stats `Stat` shape without extras). */
export type StatDto = { value: number; reason?: undefined } | { value: null; reason: Reason };

/** A 95 % interval and how it was made; bootstrap intervals say how many replicates were undefined. */
export type IntervalDto = {
  /** `normal`: estimate ± z·se (PPI); `wald`: the same for a logistic slope; `confidence_sequence`: anytime-valid. */
  method: 'wilson' | 'bootstrap' | 'normal' | 'wald' | 'confidence_sequence';
  lower: number | null;
  upper: number | null;
  reason?: Reason;
  undefinedReplicates?: number;
};

export type BootstrapInfoDto = { replicates: number; seed: number; level: 0.95; quantile: 'linear' };

export type JudgeRunDto = {
  name: string;
  /** Verdicts stored for the run (one per item, criterion and order). */
  labels: number;
  /** Records whose verdict could not be read at import (left out, never guessed). */
  unparsed: number;
  createdAt: string;
  /** How the run was made from other runs (`judge combine`); null for an imported run. */
  recipe: JudgeRunRecipeDto | null;
};
