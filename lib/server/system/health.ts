import 'server-only';
import { getDb } from '@/db/client';
import { databaseAnswers } from '@/db/queries/system';
import type { HealthDto } from './dto';

/** Whether the database answers: for process managers and tests, so it reveals nothing about the data. */
export function health(): HealthDto {
  try {
    return { ok: databaseAnswers(getDb()) };
  } catch {
    return { ok: false };
  }
}
