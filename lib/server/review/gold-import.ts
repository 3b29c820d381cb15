import 'server-only';
import fs from 'node:fs';
import type { Db } from '@/db/client';
import { itemIdByExternalId } from '@/db/queries/items';
import type { StudyRow } from '@/db/queries/studies';
import { readJsonlSync } from '@/lib/io/jsonl';
import type { ImportError } from '@/lib/validation/import-errors';
import { DomainError } from '../errors';
import { checkGoldLabels, writeGoldLabels } from './gold';

/*
 * Gold labels that come with items (docs/decisions/0030): a Concord item line may carry `"gold": {unit: label}`, in
 * the kind's own vocabulary. The kinds' item readers drop fields they do not know, so the lines are read here a
 * second time, for `gold` alone, and checked with the same rule as the item page (`checkGoldLabels`); problems are
 * reported by line and field with the file's other problems, and the labels are written with the items.
 */

export type ImportedGold = { id: string; labels: Record<string, string> };

const GOLD_KEY = Buffer.from('"gold"');

/**
 * Whether the file's bytes hold `"gold"` anywhere: a file without it (most) is not parsed a second time. (A key
 * spelt with JSON escapes is not seen, and so not imported: Concord's own files never write it so.)
 */
function mentionsGold(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    // Bytes kept from the previous chunk at the buffer's start, so a key cut by a chunk's end is still found.
    let kept = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, kept, buffer.length - kept, null);
      if (n === 0) return false;
      const end = kept + n;
      if (buffer.subarray(0, end).includes(GOLD_KEY)) return true;
      kept = Math.min(GOLD_KEY.length - 1, end);
      buffer.copy(buffer, 0, end - kept, end);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads and checks the `gold` of every line of a Concord JSONL file (read-only). */
export function checkImportedGold(study: StudyRow, file: string): { errors: ImportError[]; gold: ImportedGold[] } {
  const errors: ImportError[] = [];
  const gold: ImportedGold[] = [];
  if (!mentionsGold(file)) return { errors, gold };
  for (const rec of readJsonlSync(file)) {
    // Unreadable lines are the item reader's to report.
    if (!rec.ok || rec.value === null || typeof rec.value !== 'object' || !('gold' in rec.value)) continue;
    const { id, gold: raw } = rec.value as { id?: unknown; gold: unknown };
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || Object.values(raw).some((v) => typeof v !== 'string')) {
      errors.push({ line: rec.line, path: 'gold', message: 'gold must be an object of labels by unit, e.g. {"overall": "win"}' });
      continue;
    }
    try {
      checkGoldLabels(study, raw as Record<string, string>, 'gold');
    } catch (e) {
      if (!(e instanceof DomainError) || !e.fieldErrors) throw e;
      for (const [path, message] of Object.entries(e.fieldErrors)) errors.push({ line: rec.line, path, message });
      continue;
    }
    if (typeof id === 'string') gold.push({ id, labels: raw as Record<string, string> });
  }
  return { errors, gold };
}

/** Writes the checked gold labels of an import (inside its final transaction); returns how many items they mark. */
export function writeImportedGold(db: Db, study: StudyRow, gold: ImportedGold[], userId: number): number {
  let items = 0;
  for (const g of gold) {
    const itemId = itemIdByExternalId(db, study.id, g.id);
    if (itemId === undefined) continue;
    const labels = Object.entries(g.labels).map(([unit, label]) => ({ unit, label }));
    if (writeGoldLabels(db, study, itemId, labels, 'import', userId).written) items++;
  }
  return items;
}
