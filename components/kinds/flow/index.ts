import type { KindScreens } from '../screens';
import { FlowItemPage } from './item';
import { FlowItems } from './items';
import { FlowOverview } from './overview';
import { FlowReviewer } from './reviewer';

/** Flow review's screens: each flow verified, truncated or discarded by its reviewers, with nothing to adjudicate. */
export const flowScreens = {
  Reviewer: FlowReviewer,
  Adjudicator: null,
  Overview: FlowOverview,
  Items: FlowItems,
  Item: FlowItemPage,
  HeaderLinks: null,
  Catalog: null,
  Imports: null,
} satisfies KindScreens;
