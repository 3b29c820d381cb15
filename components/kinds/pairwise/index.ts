import type { KindScreens } from '../screens';
import { Adjudicator } from './adjudicator';
import { PairwiseCatalog } from './catalog';
import { PairwiseItemPage } from './item';
import { PairwiseItems } from './items';
import { PairwiseOverview } from './overview';
import { PairwiseJudge } from './reviewer';

/** Pairwise judgment's screens: two blinded replies judged per criterion. */
export const pairwiseScreens = {
  Reviewer: PairwiseJudge,
  Adjudicator,
  Overview: PairwiseOverview,
  Items: PairwiseItems,
  Item: PairwiseItemPage,
  HeaderLinks: null,
  Catalog: PairwiseCatalog,
  Imports: null,
} satisfies KindScreens;
