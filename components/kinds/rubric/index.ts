import type { KindScreens } from '../screens';
import { RubricAdjudicator } from './adjudicator';
import { RubricCatalog } from './catalog';
import { RubricHeaderLinks } from './header-links';
import { RubricImports } from './imports';
import { RubricItemPage } from './item';
import { RubricItems } from './items';
import { RubricOverview } from './overview';
import { RubricReviewer } from './reviewer';

/** Rubric labelling's screens: one reply (or dialogue) labelled on each dimension of a fixed catalog. */
export const rubricScreens = {
  Reviewer: RubricReviewer,
  Adjudicator: RubricAdjudicator,
  Overview: RubricOverview,
  Items: RubricItems,
  Item: RubricItemPage,
  HeaderLinks: RubricHeaderLinks,
  Catalog: RubricCatalog,
  Imports: RubricImports,
} satisfies KindScreens;
