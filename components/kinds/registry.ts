/**
 * The client-side registry of study kinds: which screens each kind shows. Pages ask it instead of branching on the
 * kind; a new kind writes its folder here (beside its `lib/kinds/<kind>` folder) and adds one line below.
 */
import { createElement, type FunctionComponent, type ReactElement } from 'react';
import type { StudyKind } from '@/lib/validation/labels';
import { flowScreens } from './flow';
import { pairwiseScreens } from './pairwise';
import { rubricScreens } from './rubric';
import type { KindScreens } from './screens';

export type { KindScreens } from './screens';

export const KIND_SCREENS = {
  flow_review: flowScreens,
  pairwise: pairwiseScreens,
  rubric: rubricScreens,
} as const satisfies Record<StudyKind, KindScreens>;

type LeadPanel = 'Overview' | 'Items' | 'Item';

/** The props kind K's lead panel S takes: what the page's loader table must produce for that kind. */
export type ScreenProps<K extends StudyKind, S extends LeadPanel> = Parameters<(typeof KIND_SCREENS)[K][S]>[0];

/** The screens of a kind named by a DTO (whose `kind` is a plain string); null for a kind Concord does not know. */
export function kindScreens(kind: string): KindScreens | null {
  return Object.hasOwn(KIND_SCREENS, kind) ? KIND_SCREENS[kind as StudyKind] : null;
}

/** Kind K's lead panel S, given the props made for K (see `ScreenProps`). */
export function kindPanel<K extends StudyKind, S extends LeadPanel>(kind: K, panel: S, props: ScreenProps<K, S>): ReactElement {
  // TypeScript cannot follow that the same `kind` picks both the panel and its props; ScreenProps checks the props.
  const Panel = KIND_SCREENS[kind][panel] as unknown as FunctionComponent<ScreenProps<K, S>>;
  return createElement(Panel, props);
}
