import type { Actor } from '@/lib/server/actor';

/**
 * One study of the demo. Its name is its identity: the seed makes the demo studies that a demo database does not
 * have yet and whose data is here, so public data fetched later reaches an existing demo.
 */
export type DemoStudy = {
  name: string;
  /** What is skipped, in words, when its data is missing ("the MathDial flows study"). */
  what: string;
  /** The public files it reads (none when it ships with the app). */
  needs: () => string[];
  /** Made only where the study of this name can be neither found nor made (a small stand-in for a public dataset). */
  standsInFor?: string;
  /** The people it is for, as the sign-in page of the demo describes them. */
  reviewers: readonly string[];
  adjudicator?: string;
  make: (actor: Actor, log: (message: string) => void, say: (message: string) => void) => void;
};
