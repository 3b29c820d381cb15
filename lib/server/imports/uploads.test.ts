import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { DomainError } from '../errors';
import { uploadsDir } from './upload-dir';
import { withUploadedFile } from './uploads';

useTestDatabase();

/** A POST whose body yields `chunks`, then ends (or fails with `failAfter`), announcing `contentLength` if given. */
function post(chunks: Uint8Array[], contentLength?: number | string, failAfter?: Error): Request {
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    // One chunk per read, as from a socket: an error comes after what had arrived was read.
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else if (failAfter) controller.error(failAfter);
      else controller.close();
    },
  });
  const headers = contentLength === undefined ? {} : { 'content-length': String(contentLength) };
  return new Request('http://127.0.0.1/api/studies/1/import', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
}

const bytes = (n: number, fill = 0x61) => new Uint8Array(n).fill(fill);
const leftOver = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()) : []);

/** Runs withUploadedFile and returns what `use` saw (or the error), checking no upload is left behind. */
async function receive(request: Request) {
  let seen: Buffer | null = null;
  const result = await withUploadedFile(request, (file) => {
    seen = fs.readFileSync(file);
    return 'used';
  }).catch((e: unknown) => e);
  expect(leftOver()).toEqual([]);
  return { result, seen: seen as Buffer | null };
}

describe('an uploaded file', () => {
  it('is handed over whole when it has the announced length', async () => {
    const { result, seen } = await receive(post([bytes(70_000), bytes(30_000, 0x62)], 100_000));
    expect(result).toBe('used');
    expect(seen?.length).toBe(100_000);
    expect(seen?.subarray(69_999, 70_001).toString()).toBe('ab');
  });

  it('is handed over whole without a Content-Length (a chunked body that ends properly)', async () => {
    const { result, seen } = await receive(post([bytes(1_000), bytes(2_000)]));
    expect(result).toBe('used');
    expect(seen?.length).toBe(3_000);
  });

  it('is refused whole when fewer bytes arrive than its Content-Length announced', async () => {
    const { result, seen } = await receive(post([bytes(10 * 1024 * 1024)], 20 * 1024 * 1024));
    expect(seen).toBeNull();
    expect(result).toBeInstanceOf(DomainError);
    expect((result as DomainError).code).toBe('invalid');
    expect((result as DomainError).message).toBe('The upload ended after 10,485,760 of 20,971,520 bytes; nothing was imported.');
  });

  it('is refused whole when more bytes arrive than announced', async () => {
    const { result, seen } = await receive(post([bytes(300)], 200));
    expect(seen).toBeNull();
    expect((result as DomainError).message).toBe('The upload brought 300 bytes where 200 were announced; nothing was imported.');
  });

  it('is refused whole when the connection fails mid-body, with or without a Content-Length', async () => {
    const announced = await receive(post([bytes(5_000)], 9_000, new Error('aborted')));
    expect(announced.seen).toBeNull();
    expect((announced.result as DomainError).message).toBe('The upload ended after 5,000 of 9,000 bytes; nothing was imported.');
    const chunked = await receive(post([bytes(5_000)], undefined, new Error('aborted')));
    expect(chunked.seen).toBeNull();
    expect((chunked.result as DomainError).message).toBe(
      'The upload ended after 5,000 bytes, before the end of the file; nothing was imported.',
    );
  });

  it('is refused before a byte is stored when it announces more than 4 GiB or an unreadable length', async () => {
    const tooLarge = await receive(post([bytes(10)], 5 * 1024 ** 3));
    expect((tooLarge.result as DomainError).message).toBe('The file is larger than 4 GiB.');
    const unreadable = await receive(post([bytes(10)], '10, 10'));
    expect((unreadable.result as DomainError).message).toBe(
      'The upload has an unreadable Content-Length ("10, 10"); nothing was imported.',
    );
  });

  it('is refused when the request has no body', async () => {
    const request = new Request('http://127.0.0.1/api/studies/1/import', { method: 'POST' });
    const { result } = await receive(request);
    expect((result as DomainError).message).toBe('The request has no file.');
  });
});
