import fs from 'node:fs';

/**
 * Reads a data file that is one JSON array (Bridge, PandaLM). These files are
 * a few megabytes at most, so they are read whole. A file that is not a JSON
 * array gives a message for the import report; failing to read it throws.
 */
export function readJsonArray(path: string): { ok: true; records: unknown[] } | { ok: false; message: string } {
  const bytes = fs.readFileSync(path);
  let text: string;
  try {
    // The decoder drops a leading BOM.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: 'the file is not valid UTF-8' };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `the file is not valid JSON (${(e as Error).message})` };
  }
  if (!Array.isArray(data)) return { ok: false, message: 'the file must hold a JSON array of records' };
  return { ok: true, records: data };
}
