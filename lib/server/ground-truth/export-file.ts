import 'server-only';
import { openSnapshot, type Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import { csvHeader, csvLines } from '@/lib/io/csv';
import { jsonlLine } from '@/lib/io/jsonl-out';

/** CSV rows written per chunk, so the stream is fed a few large pieces. */
const CSV_BATCH = 500;

/**
 * A ground-truth export of any kind of study as a file: its lines (JSONL, or CSV with the header first) streamed
 * from one read snapshot, so labels arriving meanwhile do not tear it, the summary, a file name and content type.
 */
export function groundTruthFile<R, S>(
  study: StudyRow,
  format: 'jsonl' | 'csv',
  summary: S,
  rows: (db: Db) => Iterable<R>,
  out: { header: string[]; csv: (r: R) => unknown[]; json: (r: R) => object },
) {
  function* lines(): Generator<string> {
    const snap = openSnapshot();
    try {
      if (format === 'csv') {
        yield csvHeader(out.header);
        let batch: unknown[][] = [];
        for (const r of rows(snap.db)) {
          batch.push(out.csv(r));
          if (batch.length === CSV_BATCH) {
            yield csvLines(batch);
            batch = [];
          }
        }
        if (batch.length) yield csvLines(batch);
      } else {
        for (const r of rows(snap.db)) yield jsonlLine(out.json(r));
      }
    } finally {
      snap.close();
    }
  }
  const safeName = study.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || 'study';
  return {
    lines: lines(),
    summary,
    filename: `${safeName}-ground-truth.${format}`,
    contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
  };
}
