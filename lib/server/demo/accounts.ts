import 'server-only';
import { getDb } from '@/db/client';
import { getSetting, setSetting } from '@/db/queries/settings';
import type { Db } from '@/db/client';
import type { DemoAccountDto } from './dto';

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
    sees: 'Flow reviews, pairwise judging, and MRBench replies to label (20 dialogues already done by the seed).',
  },
  { username: 'ann2', displayName: 'Annotator Two', role: 'annotator', sees: 'The same studies as ann1.' },
  {
    username: 'ann3',
    displayName: 'Annotator Three',
    role: 'annotator',
    sees: 'MathDial flows, the second set of Bridge replies, and the AITutor-EvalKit replies.',
  },
  {
    username: 'ann4',
    displayName: 'Annotator Four',
    role: 'annotator',
    sees: 'The second set of Bridge replies and the AITutor-EvalKit replies.',
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

/** The demo accounts to list on the sign-in page, or null when this database is not the demo. */
export function demoAccounts(): DemoAccountDto[] | null {
  if (getSetting(getDb(), DEMO_SETTING) !== '1') return null;
  return DEMO_ACCOUNTS.map(({ username, role, sees }) => ({ username, role, sees, password: DEMO_PASSWORD }));
}
