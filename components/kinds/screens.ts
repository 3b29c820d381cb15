/**
 * The screens every kind of study gives the app, as the pages ask for them through `registry.ts`. The frames that
 * are the same for every kind (the review queue, the adjudication screen, the items table, the study page) live in
 * `components/review` and `components/study`; a kind supplies only what differs, in its folder here.
 */
import type { ReactNode } from 'react';
import type { AdjudicationQueueDto, QueueDto } from '@/lib/server/review/dto';
import type { StudyDto } from '@/lib/server/studies/dto';

/**
 * A lead's panel whose props are the kind's own data. Components may not call use-cases (only DTOs cross into
 * `components/`), so the page reads that data; its loader table is typed per kind through `ScreenProps` in
 * `registry.ts`, which is where a kind's panel and its data are checked against each other.
 */
export type KindPanel = (props: never) => ReactNode;

export interface KindScreens {
  /** The reviewer's queue screen (a client component): the shared queue frame holding the kind's panel. */
  Reviewer: (props: { initialQueue: QueueDto }) => ReactNode;
  /** The adjudicator's screen, or null for a kind with nothing to adjudicate (its page is then not found). */
  Adjudicator: ((props: { initialQueue: AdjudicationQueueDto }) => ReactNode) | null;
  /** The study page below its settings once the study is open: progress, ground truth, exports, judge runs. */
  Overview: KindPanel;
  /** The study's items for its leads, with the kind's filters, columns and states. */
  Items: KindPanel;
  /** One item for its leads: content, every reviewer's revisions, rulings. */
  Item: KindPanel;
  /** Links under the study's name on its page, from the draft on; null for none. */
  HeaderLinks: ((props: { studyId: number }) => ReactNode) | null;
  /** The draft study's catalog (criteria, dimensions) beside its import and people; null for a kind without one. */
  Catalog: ((props: { study: StudyDto }) => ReactNode) | null;
  /** What a lead may import besides the items until the study is closed (annotations, judge runs); null for none. */
  Imports: ((props: { studyId: number }) => ReactNode) | null;
}
