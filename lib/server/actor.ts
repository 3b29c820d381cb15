import type { ROLES } from '@/db/schema';

export type Role = (typeof ROLES)[number];

/** Who is asking, as re-read from the database on every call. */
export type Actor = { id: number; username: string; displayName: string; role: Role };

export const isStaff = (actor: Actor) => actor.role === 'admin' || actor.role === 'lead';
