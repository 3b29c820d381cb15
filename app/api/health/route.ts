import { NextResponse } from 'next/server';
import { health } from '@/lib/server/system/health';

export const dynamic = 'force-dynamic';

/** Liveness and database check for process managers and tests; reveals nothing about the data. */
export function GET() {
  const { ok } = health();
  return NextResponse.json({ ok }, { status: ok ? 200 : 503 });
}
