/**
 * Cursor pagination over rows ordered by a positive integer id, oldest first. The cursor is opaque to clients
 * (base64url of the last id seen), so the order or key can change later without breaking them.
 */
import { invalid } from '@/lib/server/errors';

export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 200;

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[1-9]\d{0,15}$/.test(text))
    throw invalid(`cursor: "${cursor.slice(0, 40)}" is not a cursor this API gave out.`, { cursor: 'Not a cursor of this API.' });
  return Number(text);
}

const encodeCursor = (id: number) => Buffer.from(String(id), 'utf8').toString('base64url');

/** The rows after the cursor, at most `limit`, with the cursor of the next page. */
export function page<T extends { id: number }>(
  rows: readonly T[],
  cursor: string | undefined,
  limit: number,
): { data: T[]; nextCursor: string | null } {
  const after = decodeCursor(cursor);
  const sorted = rows.filter((r) => r.id > after).sort((a, b) => a.id - b.id);
  const data = sorted.slice(0, limit);
  return { data, nextCursor: sorted.length > limit ? encodeCursor(data[data.length - 1].id) : null };
}
