import { ItemDetail } from '@/components/study/item-detail';
import type { KindScreens } from '../screens';
import { FlowItems } from './items';
import { FlowOverview } from './overview';
import { FlowReviewer } from './reviewer';

/** Flow review's screens. A flow has one reviewer's decision per assignment and nothing to adjudicate. */
export const flowScreens = {
  Reviewer: FlowReviewer,
  Adjudicator: null,
  Overview: FlowOverview,
  Items: FlowItems,
  Item: ItemDetail,
  HeaderLinks: null,
  Catalog: null,
  Imports: null,
} satisfies KindScreens;
