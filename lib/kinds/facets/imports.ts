/**
 * What a kind of study contributes to its imports. The shared cores in `lib/server/imports/` own everything that is
 * the same for every kind — the format check, the read-only first pass that lists every bad line, the staging that
 * makes an import all-or-nothing, the request path, the audit entry and the messages — and ask the kind only for
 * what differs: its formats and their readers, how an item is stored, how labels are checked and stored.
 *
 * A kind that does not import something leaves that member `null` and its format list for it empty.
 */
import type { Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import type { RecordResult } from '@/lib/io/record-result';
import type { ImportError } from '@/lib/validation/import-errors';
import type { ImportFormatList } from './import-formats';

/** A row of `items` as every kind writes it; the kind adds its own columns. */
export type NewItemRow = { studyId: number; externalId: string; position: number; payload: string; contentHash: string; importId: number };

export interface ItemImports<V extends { id: string } = { id: string }> {
  /** The validated items of a file in one of the kind's item formats. */
  read(file: string, format: string, study: StudyRow): Iterable<RecordResult<V>>;
  /** The JSON text stored as the item's payload. */
  payload(item: V): string;
  /** Writes one item with the kind's own columns (sources, step count, group). */
  insert(db: Db, row: NewItemRow, item: V): void;
  /** How the kind's files name a record in "the file changed" messages. */
  recordWord: 'line' | 'record';
}

/** A prior annotation as every kind's reader yields it. */
export type LabelLine = { item: string; annotator: string; labels: Record<string, string> };

/** How one study's labels are checked and stored (the study's catalog read once). */
export interface StudyLabels {
  /**
   * Problems of a line's labels on its item beyond what the reader checked; `item` is the item as imported (from
   * the study or from the same file). Absent: the reader checked everything.
   */
  problems?(item: unknown, line: LabelLine, lineNo: number): ImportError[];
  /** The labels of a stored annotation, by name. */
  existing(annotationId: number): Record<string, string>;
  /** Stores an imported annotation's labels. */
  insert(annotationId: number, labels: Record<string, string>): void;
}

export interface AnnotationImports {
  read(file: string, format: string, study: StudyRow): Iterable<RecordResult<LabelLine>>;
  labelsOf(db: Db, study: StudyRow): StudyLabels;
}

/** A judge verdict line as every kind's reader yields it. */
export type VerdictLine = { item: string; judge: string; labels: Record<string, string> };

/** How one study's judge verdicts are checked and written. */
export interface StudyVerdicts<Row = unknown> {
  /** Problems of a readable line on its item (`itemId`), including a verdict the file already gave. */
  problems(itemId: number, line: VerdictLine, lineNo: number): ImportError[];
  /** The rows one line writes. */
  rowsOf(itemId: number, line: VerdictLine): Iterable<Row>;
  insert(db: Db, runId: number, row: Row): void;
}

export interface JudgeImports {
  read(file: string, format: string, study: StudyRow, judgeName: string | undefined): Iterable<RecordResult<VerdictLine>>;
  verdictsOf(db: Db, study: StudyRow): StudyVerdicts;
}

export interface ImportsFacet {
  /** The formats, per purpose (pure: `lib/kinds/<kind>/import-formats.ts`). */
  formats: ImportFormatList;
  items: ItemImports | null;
  annotations: AnnotationImports | null;
  judge: JudgeImports | null;
}
