/**
 * Gold items (docs/decisions/0030): what a known answer is made of in the kind's own vocabulary, and how reviewers'
 * answers on gold items are read, so the shared core (`lib/server/review/gold.ts`) checks gold labels and scores
 * reviewers without branching on the kind.
 */
import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';

/** One unit of an item a gold label may name (a pairwise criterion, a rubric dimension, a flow review's decision). */
export type GoldUnit = { id: string; labels: readonly string[] };

/** A reviewer's counting answer on one unit of a gold item, by name. */
export type GoldAnswer = { itemId: number; userId: number; unit: string; label: string };

export interface GoldFacet {
  /** The units a gold label may name for the study, each with its label set in the kind's own names. */
  units(study: StudyRow): GoldUnit[];
  /** Every reviewer's counting answer (newest revision of a submitted assignment) on the study's gold items. */
  answers(db: Db, study: StudyRow): GoldAnswer[];
}
