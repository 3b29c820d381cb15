'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/auth/handlers';
import { createJudgeEndpoint, deleteJudgeEndpoint, updateJudgeEndpoint } from '@/lib/server/judges/endpoints';

const done = <T>(res: T) => {
  revalidatePath('/admin/judge-endpoints');
  return res;
};

export async function createJudgeEndpointAction(input: Record<string, string>) {
  return done(await runAction((actor) => createJudgeEndpoint(actor, input)));
}

export async function updateJudgeEndpointAction(id: number, input: Record<string, string>) {
  return done(await runAction((actor) => updateJudgeEndpoint(actor, id, input)));
}

export async function deleteJudgeEndpointAction(id: number) {
  return done(await runAction((actor) => deleteJudgeEndpoint(actor, id)));
}
