import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { uploadsDir } from './upload-dir';
import { invalid } from './errors';

const MAX_UPLOAD_BYTES = 4 * 1024 ** 3;

/**
 * Streams an upload to a private temporary file (memory stays flat whatever its size), runs `use` on it and
 * removes the file afterwards.
 */
export async function withUploadedFile<T>(body: ReadableStream<Uint8Array> | null, use: (file: string) => T | Promise<T>): Promise<T> {
  if (!body) throw invalid('The request has no file.');
  fs.mkdirSync(uploadsDir(), { recursive: true, mode: 0o700 });
  const dir = fs.mkdtempSync(path.join(uploadsDir(), 'upload-'));
  const file = path.join(dir, crypto.randomUUID());
  try {
    let bytes = 0;
    const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
    source.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_UPLOAD_BYTES) source.destroy(new Error('upload too large'));
    });
    await pipeline(source, fs.createWriteStream(file, { mode: 0o600 })).catch((e: Error) => {
      throw invalid(
        e.message === 'upload too large' ? 'The file is larger than 4 GiB.' : 'The upload was interrupted; nothing was imported.',
      );
    });
    return await use(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
