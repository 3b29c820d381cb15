import fs from 'node:fs';
import type { ImportError } from '@/lib/validation/import-errors';

/*
 * JSON Lines reading, synchronous on purpose: imports run inside a
 * better-sqlite3 transaction, which must not await. Memory is bounded by the
 * longest accepted line, not by the file.
 */

export type JsonlResult = { line: number; ok: true; value: unknown } | { line: number; ok: false; error: ImportError };

export type JsonlOptions = {
  /** Longest accepted line in bytes, excluding the line break. Default 16 MiB. */
  maxLineBytes?: number;
};

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;

function describeBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function lineError(line: number, message: string): JsonlResult {
  return { line, ok: false, error: { line, path: '', message } };
}

/**
 * Turns a stream of byte chunks into parsed lines. A chunk may be reused by
 * the producer once the next one is requested, so bytes that must outlive
 * their chunk (the start of a line that continues in the next chunk) are copied.
 */
function* parseLines(chunks: Iterable<Buffer>, maxLineBytes: number): Generator<JsonlResult> {
  if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1) {
    throw new RangeError(`maxLineBytes must be a positive integer, got ${maxLineBytes}`);
  }
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  // One extra byte so that the CR of a CRLF break does not count against the limit.
  const maxRawBytes = maxLineBytes + 1;
  let lineNo = 1;
  // The start of the current line, copied out of earlier chunks.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // The current line has passed the limit; its bytes are being discarded until its end.
  let overLimit = false;

  function parse(n: number, raw: Buffer): JsonlResult | null {
    let bytes = raw;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    if (n === 1 && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      bytes = bytes.subarray(3);
    }
    if (bytes.length > maxLineBytes) return lineError(n, `line is longer than the ${describeBytes(maxLineBytes)} limit`);
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      return lineError(n, 'line is not valid UTF-8');
    }
    if (text.trim() === '') return null;
    try {
      return { line: n, ok: true, value: JSON.parse(text) };
    } catch (e) {
      return lineError(n, `line is not valid JSON (${(e as Error).message})`);
    }
  }

  /** Ends the current line with `tail` (bytes of the current chunk) and parses it. */
  function endLine(tail: Buffer): JsonlResult | null {
    const n = lineNo++;
    const tooLong = overLimit || pendingBytes + tail.length > maxRawBytes;
    const raw = tooLong || pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    overLimit = false;
    return tooLong ? lineError(n, `line is longer than the ${describeBytes(maxLineBytes)} limit`) : parse(n, raw);
  }

  /** Keeps the unfinished end of a chunk, unless the line is already too long to accept. */
  function carry(part: Buffer) {
    if (overLimit || part.length === 0) return;
    if (pendingBytes + part.length > maxRawBytes) {
      overLimit = true;
      pending = [];
      pendingBytes = 0;
      return;
    }
    pending.push(Buffer.from(part));
    pendingBytes += part.length;
  }

  for (const chunk of chunks) {
    let start = 0;
    for (let nl = chunk.indexOf(LF, start); nl !== -1; nl = chunk.indexOf(LF, start)) {
      const result = endLine(chunk.subarray(start, nl));
      if (result) yield result;
      start = nl + 1;
    }
    carry(chunk.subarray(start));
  }
  // A last line without a trailing line break.
  if (overLimit || pendingBytes > 0) {
    const result = endLine(Buffer.alloc(0));
    if (result) yield result;
  }
}

function* fileChunks(path: string): Generator<Buffer> {
  const fd = fs.openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (n === 0) return;
      yield buffer.subarray(0, n);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads a JSONL file line by line. Blank lines are skipped but still counted,
 * so line numbers match an editor's. `\n` and `\r\n` breaks and a leading
 * UTF-8 BOM are accepted. Each bad line (invalid UTF-8, invalid JSON, longer
 * than `maxLineBytes`) is reported with its number and reading continues.
 * Failing to open or read the file throws.
 */
export function readJsonlSync(path: string, opts: JsonlOptions = {}): Generator<JsonlResult> {
  return parseLines(fileChunks(path), opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
}

/** readJsonlSync() for text already in memory (small inputs, tests). */
export function readJsonlFromString(text: string, opts: JsonlOptions = {}): Generator<JsonlResult> {
  return parseLines([Buffer.from(text, 'utf8')], opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
}
