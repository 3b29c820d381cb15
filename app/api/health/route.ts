import { NextResponse } from 'next/server';
import { currentActor } from '@/lib/auth/guards';
import { health } from '@/lib/server/system/health';

export const dynamic = 'force-dynamic';

/** Liveness, database check and backup state for process managers and monitoring; reveals nothing about the data. */
export async function GET() {
  const actor = await currentActor().catch(() => null);
  const body = health(actor);
  return NextResponse.json(body, { status: body.ok ? 200 : 503 });
}
