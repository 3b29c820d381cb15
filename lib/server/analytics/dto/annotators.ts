/**
 * The annotator quality report (`annotators`) and the exclusions of annotators from a study (decision 0029): the
 * shapes that leave the server.
 */
import type { FirstPreferenceDto } from './certify';
import type { IntervalDto, StatDto } from './common';

/** One excluded annotator and the labels of theirs the reports leave out. */
export type ExcludedAnnotatorDto = { userId: number; username: string; labels: number; excludedBy: string; excludedAt: string };

/** What every report says about exclusions: how many labels were left out and whose. */
export type ExcludedLabelsDto = { labels: number; annotators: ExcludedAnnotatorDto[] };

/** A count and a rate out of it with its Wilson 95 % interval. */
export type RateDto = { n: number; k: number; rate: StatDto; interval: IntervalDto };

/** One annotator on one unit (a pairwise criterion, a rubric dimension). */
export type AnnotatorUnitDto = {
  unit: string;
  username: string;
  userId: number;
  /** Left out of the ground truth and of the aggregates (Dawid–Skene, MACE, the others' majority). */
  excluded: boolean;
  /** Items the annotator labelled on this unit. */
  items: number;
  /** Agreement with the reference label (the ground truth without the annotator's own vote, see the docs). */
  accuracy: RateDto;
  kappa: StatDto;
  kappaN: number;
  /** Agreement with the plurality of the other (not excluded) annotators; tied pluralities skipped. */
  loo: RateDto & { tied: number; noOthers: number };
  /** Dawid–Skene: the annotator's confusion matrix (rows true class, columns their label; null rows: no mass). */
  dsConfusion: (number[] | null)[] | null;
  /** Its diagonal averaged over the classes with mass, weighted by the class priors. */
  dsCompetence: StatDto;
  maceCompetence: StatDto;
  /** Straight-lining: the share of the most-used label and the longest run of one label in submission order. */
  mostUsedLabel: string | null;
  mostUsedShare: StatDto;
  longestRun: number;
  longestRunLabel: string | null;
  /** Position bias (pairwise): how often a decisive label chose the reply shown first; null without a stored display order. */
  firstShown: FirstPreferenceDto | null;
  /** The items behind the accuracy: where the annotator's label differs from the reference (the first 100). */
  disagreements: { itemId: number; item: string; label: string; reference: string }[];
  disagreementsTotal: number;
};

/** One annotator over the study: items and active time. */
export type AnnotatorDto = {
  username: string;
  userId: number;
  excluded: boolean;
  items: number;
  /** Median active seconds per item, and its ratio to the study's median (null without recorded time). */
  medianActiveSeconds: number | null;
  activeRatio: StatDto;
  /** Accuracy on the study's gold items, per gold unit answered (the gold report's figure, docs/decisions/0030). */
  gold: RateDto;
};

export type AnnotatorsReportDto = {
  kind: string;
  /** Per unit: its labels, the Dawid–Skene class priors and whether EM converged. */
  units: { unit: string; labels: string[]; dsPriors: number[] | null; dsConverged: boolean | null; maceConverged: boolean | null }[];
  /** The study's ground-truth rule (the reference of the accuracy is this rule applied without the annotator). */
  rule: string;
  /** The study's median active seconds per labelled item (null when none was recorded, e.g. imported labels). */
  medianActiveSeconds: number | null;
  annotators: AnnotatorDto[];
  rows: AnnotatorUnitDto[];
  excluded: ExcludedLabelsDto;
};
