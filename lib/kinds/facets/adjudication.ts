/**
 * The kind-specific part of adjudication. The shared core (`lib/server/review/adjudication.ts`, `disputes.ts`) owns
 * who may adjudicate, which items are disputed under the study's ground-truth rule, request replay, the study's
 * status, completeness, "overruling every reviewer needs a rationale", the write and the audit entry, and all their
 * messages. A kind supplies only what differs: what one disputed unit is (a pairwise criterion, a rubric dimension),
 * how its labels are stored and decoded to codes, how the adjudicator names an item, and the screen's view.
 *
 * Votes and choices are label codes (the index in the unit's label set, −1 for no vote), so the core decides every
 * kind with the one rule (`lib/server/ground-truth/rule.ts`).
 */
import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import type { AdjudicationItemDto, RubricAdjudicationItemDto } from '@/lib/server/review/dto';

export type DisputedItem = { itemId: number; position: number; disagreements: number; resolved: number };

/** One unit of an item with its reviewers' votes: codes by reviewer (−1 where one gave none). */
export type AdjudicationUnit = { id: string; votes: readonly number[]; labelCount: number };

/** One unit of a complete item whose reviewers did not all agree, as the disputed set is counted. */
export type SplitUnit = { itemId: number; position: number; votes: readonly number[]; labelCount: number; adjudicated: boolean };

/** A submission of rulings after the kind's own parsing: `choices` is what the kind's schema calls its labels. */
export type RulingsInput = {
  studyId: number;
  /** The item as the adjudicator names it (`refOf`). */
  itemId: number;
  requestId: string;
  rationales: Record<string, string>;
  /** The choices as sent, hashed for request replay under the kind's field name (`choiceField`). */
  choices: Record<string, string>;
};

export type RulingWrite = {
  itemId: number;
  unit: string;
  label: number;
  rationale: string | null;
  adjudicatorId: number;
  requestId: string;
  requestHash: string;
};

/** What the rule decided on one unit: settled by the reviewers (all agree, or a majority under the majority rule) and on which code (−1 if not). */
export type UnitDecision = { agreed: boolean; settled: number };

export type ViewContext = {
  /** By unit id; a unit without votes is absent. */
  decided: ReadonlyMap<string, UnitDecision>;
  /** The item's place in the adjudicator's queue (computed only if asked for). */
  place: () => number;
};

export interface AdjudicationFacet {
  /** How the kind names one unit and several, in messages and in the audit entry's detail. */
  unit: { one: string; many: string };
  /** The name of the choices in the kind's submission (and in its request hash): `choices` or `labels`. */
  choiceField: string;
  /** Parses a submission of rulings with the kind's schema (an `invalid` error otherwise). */
  parseRulings(input: unknown): RulingsInput;
  /** Every split unit of the study's complete items, in item order (the disputed set is counted from these). */
  splitUnits(db: Db, study: StudyRow): SplitUnit[];
  /** The disputed items as the adjudicator's queue lists them (named and ordered as the kind names items). */
  queueOf(study: StudyRow, items: DisputedItem[]): DisputedItem[];
  /**
   * The item id behind the adjudicator's name for it (a "not found" error for a name that cannot be one); without
   * the study (there is none by that id), whatever the request hash should carry.
   */
  itemIdOf(study: StudyRow | undefined, ref: number): number;
  refOf(study: StudyRow, itemId: number): number;
  /** The item's study, or undefined if there is no such item. */
  studyOfItem(db: Db, itemId: number): number | undefined;
  /** Whether the item has any ruling. */
  ruled(db: Db, itemId: number): boolean;
  /** The item's units with their current votes, in the order the kind lists them. */
  units(db: Db, study: StudyRow, itemId: number): AdjudicationUnit[];
  /** The adjudicator's choices as codes by unit id; names that are not the kind's are refused here. */
  choiceCodes(study: StudyRow, itemId: number, adjudicatorId: number, choices: Record<string, string>): Map<string, number>;
  /** The ruling an adjudicator's request id wrote, if any. */
  priorRuling(db: Db, adjudicatorId: number, requestId: string): { itemId: number; requestHash: string | null } | undefined;
  insertRuling(db: Db, study: StudyRow, ruling: RulingWrite): void;
  /** The item as its adjudicator sees it, with what the core decided per unit. */
  view(
    db: Db,
    study: StudyRow,
    adjudicatorId: number,
    itemId: number,
    context: ViewContext,
  ): AdjudicationItemDto | RubricAdjudicationItemDto;
}
