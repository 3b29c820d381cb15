import { NextResponse } from 'next/server';
import { getDb } from '@/db/client';

export const dynamic = 'force-dynamic';

/** Liveness and database check for process managers and tests; reveals nothing about the data. */
export function GET() {
  try {
    const ok = getDb().$client.prepare('SELECT 1').pluck().get() === 1;
    return NextResponse.json({ ok }, { status: ok ? 200 : 503 });
  } catch {
    return NextResponse.json({ ok: false }, { status: 503 });
  }
}
