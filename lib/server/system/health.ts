import 'server-only';
import { getDb } from '@/db/client';
import type { HealthDto } from './dto';

/** Whether the database answers: for process managers and tests, so it reveals nothing about the data. */
export function health(): HealthDto {
  try {
    return { ok: getDb().$client.prepare('SELECT 1').pluck().get() === 1 };
  } catch {
    return { ok: false };
  }
}
