'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/auth/handlers';
import { createApiToken, revokeApiToken } from '@/lib/server/accounts/tokens';

export async function createTokenAction(input: { name: string; expiresInDays: string }) {
  const res = await runAction((actor) => createApiToken(actor, { name: input.name, expiresInDays: input.expiresInDays || undefined }));
  revalidatePath('/account');
  return res;
}

export async function revokeTokenAction(id: number) {
  const res = await runAction((actor) => revokeApiToken(actor, id));
  revalidatePath('/account');
  return res;
}
