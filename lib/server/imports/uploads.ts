import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { uploadsDir } from './upload-dir';
import { invalid } from '../errors';

const MAX_UPLOAD_BYTES = 4 * 1024 ** 3;
const TOO_LARGE = 'The file is larger than 4 GiB.';

const count = (n: number) => n.toLocaleString('en-US');

/** The announced body length, or null for a body sent without one (chunked). */
function announcedLength(request: Request): number | null {
  const header = request.headers.get('content-length');
  if (header === null) return null;
  if (!/^\d{1,16}$/.test(header.trim()))
    throw invalid(`The upload has an unreadable Content-Length ("${header.slice(0, 40)}"); nothing was imported.`);
  return Number(header.trim());
}

function endedEarly(received: number, announced: number | null) {
  return invalid(
    announced === null
      ? `The upload ended after ${count(received)} bytes, before the end of the file; nothing was imported.`
      : `The upload ended after ${count(received)} of ${count(announced)} bytes; nothing was imported.`,
  );
}

/**
 * Streams an upload to a private temporary file (memory stays flat whatever its size), runs `use` on it and
 * removes the file afterwards. `use` only ever sees the whole file: a body that stops before the length its
 * Content-Length announced, or whose connection fails mid-body, is refused, whatever part of it had arrived —
 * a file cut at a line break would otherwise import as a smaller, valid file.
 */
export async function withUploadedFile<T>(request: Request, use: (file: string) => T | Promise<T>): Promise<T> {
  const announced = announcedLength(request);
  if (!request.body) throw invalid('The request has no file.');
  if (announced !== null && announced > MAX_UPLOAD_BYTES) throw invalid(TOO_LARGE);
  fs.mkdirSync(uploadsDir(), { recursive: true, mode: 0o700 });
  const dir = fs.mkdtempSync(path.join(uploadsDir(), 'upload-'));
  const file = path.join(dir, crypto.randomUUID());
  try {
    // Counted as the bytes arrive, so that a refusal says how much of the file came.
    let received = 0;
    const counted = request.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          received += chunk.length;
          if (received > MAX_UPLOAD_BYTES) controller.error(new Error('upload too large'));
          else controller.enqueue(chunk);
        },
      }),
    );
    const source = Readable.fromWeb(counted as import('node:stream/web').ReadableStream<Uint8Array>);
    await pipeline(source, fs.createWriteStream(file, { mode: 0o600 })).catch((e: Error) => {
      throw e.message === 'upload too large' ? invalid(TOO_LARGE) : endedEarly(received, announced);
    });
    // What is on disk, not what was counted on the way: this is what the import will read.
    const stored = fs.statSync(file).size;
    if (stored !== received || (announced !== null && stored < announced)) throw endedEarly(stored, announced);
    if (announced !== null && stored > announced)
      throw invalid(`The upload brought ${count(stored)} bytes where ${count(announced)} were announced; nothing was imported.`);
    return await use(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
