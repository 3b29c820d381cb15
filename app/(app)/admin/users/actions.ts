'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/auth/handlers';
import { createUser, resetPassword, setUserActive, setUserRole } from '@/lib/server/accounts/users';
import { backUpNow } from '@/lib/server/system/backup-schedule';

const done = <T>(res: T) => {
  revalidatePath('/admin/users');
  return res;
};

export async function createUserAction(input: { username: string; displayName: string; password: string; role: string }) {
  return done(await runAction((actor) => createUser(actor, input)));
}

export async function setUserActiveAction(id: number, active: boolean) {
  return done(await runAction((actor) => setUserActive(actor, id, active)));
}

export async function setUserRoleAction(id: number, role: string) {
  return done(await runAction((actor) => setUserRole(actor, id, role)));
}

export async function resetPasswordAction(id: number, password: string) {
  return done(await runAction((actor) => resetPassword(actor, id, password)));
}

/** One verified backup now, into the backup folder (the admin page's "Back up now"). */
export async function backUpNowAction() {
  return done(await runAction((actor) => backUpNow(actor)));
}
