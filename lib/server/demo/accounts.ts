import 'server-only';
import { getDb } from '@/db/client';
import { getSetting, setSetting } from '@/db/queries/settings';
import type { Db } from '@/db/client';

export const DEMO_PASSWORD = 'concord-demo';

/** The setting the seed writes: only a database made by `concord seed` is a demo. */
const DEMO_SETTING = 'demo';

/** The demo accounts, what each may do and what each finds on signing in (shown on the sign-in page of a demo). */
export const DEMO_ACCOUNTS = [
  {
    username: 'admin',
    displayName: 'Ada Admin',
    role: 'admin',
    sees: 'Every study, and the Accounts page (create, disable, reset passwords).',
  },
  {
    username: 'lead',
    displayName: 'Lee Lead',
    role: 'lead',
    sees: 'Every study: progress, items, reviewers, dashboards, exports; creates and edits studies.',
  },
  {
    username: 'ann1',
    displayName: 'Annotator One',
    role: 'annotator',
    sees: 'Flow reviews, pairwise judging and rubric labelling.',
  },
  { username: 'ann2', displayName: 'Annotator Two', role: 'annotator', sees: 'The same studies as ann1.' },
  {
    username: 'ann3',
    displayName: 'Annotator Three',
    role: 'annotator',
    sees: 'The studies of the public datasets: MathDial flows, Bridge replies, AITutor-EvalKit replies.',
  },
  {
    username: 'ann4',
    displayName: 'Annotator Four',
    role: 'annotator',
    sees: 'The second set of Bridge replies and the AITutor-EvalKit replies (public datasets).',
  },
  {
    username: 'adj',
    displayName: 'Adjudicator Five',
    role: 'annotator',
    sees: 'Adjudicates the pairwise and rubric studies: its home page counts the disagreements waiting.',
  },
] as const;

/** Marks the database as the demo (inside the seed's own work). */
export function markDemo(db: Db) {
  setSetting(db, DEMO_SETTING, '1');
}

/** Whether the seed made this database (only then are accounts listed before sign-in). */
export const isDemo = (db: Db = getDb()) => getSetting(db, DEMO_SETTING) === '1';
