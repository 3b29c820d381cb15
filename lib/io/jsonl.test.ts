import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readJsonlFromString, readJsonlSync, type JsonlResult } from './jsonl';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-jsonl-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, content);
  return p;
}

const summary = (results: Iterable<JsonlResult>) =>
  Array.from(results, (r) => (r.ok ? { line: r.line, value: r.value } : { line: r.line, error: r.error.message }));

describe('readJsonlSync', () => {
  it('reads LF and CRLF files, counting blank lines but not yielding them', () => {
    const text = '{"a":1}\n\n   \n{"a":2}\n';
    const expected = [
      { line: 1, value: { a: 1 } },
      { line: 4, value: { a: 2 } },
    ];
    expect(summary(readJsonlSync(file('lf.jsonl', text)))).toEqual(expected);
    expect(summary(readJsonlSync(file('crlf.jsonl', text.replace(/\n/g, '\r\n'))))).toEqual(expected);
  });

  it('keeps a CR that is inside a JSON string and reads a last line without a break', () => {
    expect(summary(readJsonlSync(file('cr.jsonl', '{"t":"a\\r"}\r\n{"t":"b"}')))).toEqual([
      { line: 1, value: { t: 'a\r' } },
      { line: 2, value: { t: 'b' } },
    ]);
  });

  it('drops a UTF-8 byte order mark at the start of the file only', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const p = file('bom.jsonl', Buffer.concat([bom, Buffer.from('{"a":"é"}\n'), bom, Buffer.from('{"a":2}\n')]));
    const results = summary(readJsonlSync(p));
    expect(results[0]).toEqual({ line: 1, value: { a: 'é' } });
    expect(results[1].line).toBe(2);
    expect(results[1].error).toMatch(/^line is not valid JSON/);
  });

  it('rejects invalid UTF-8 and invalid JSON line by line, and goes on', () => {
    const p = file(
      'bad.jsonl',
      Buffer.concat([
        Buffer.from('{"ok":1}\n{"t":"'),
        Buffer.from([0xc3, 0x28]), // a lead byte followed by a non-continuation byte
        Buffer.from('"}\n{"ok":2,}\n{"ok":3}\n'),
      ]),
    );
    expect(summary(readJsonlSync(p))).toEqual([
      { line: 1, value: { ok: 1 } },
      { line: 2, error: 'line is not valid UTF-8' },
      { line: 3, error: expect.stringMatching(/^line is not valid JSON \(.+\)$/) },
      { line: 4, value: { ok: 3 } },
    ]);
  });

  it('reports a line over the limit without stopping, and accepts one exactly at it', () => {
    const exact = `"${'x'.repeat(98)}"`; // 100 bytes
    const p = file('long.jsonl', `${exact}\r\n"${'y'.repeat(200)}"\n{"after":true}\n`);
    expect(summary(readJsonlSync(p, { maxLineBytes: 100 }))).toEqual([
      { line: 1, value: 'x'.repeat(98) },
      { line: 2, error: 'line is longer than the 100 bytes limit' },
      { line: 3, value: { after: true } },
    ]);
  });

  it('handles lines that span many read chunks, long and over the limit', () => {
    const big = 'z'.repeat(2.5 * 1024 * 1024);
    const p = file('chunks.jsonl', `{"s":"${big}"}\n{"n":1}\n{"s":"${big}${big}"}\n{"n":2}`);
    const results = Array.from(readJsonlSync(p, { maxLineBytes: 4 * 1024 * 1024 }));
    expect(results.map((r) => r.line)).toEqual([1, 2, 3, 4]);
    expect(results[0].ok && (results[0].value as { s: string }).s.length).toBe(big.length);
    expect(results[1]).toEqual({ line: 2, ok: true, value: { n: 1 } });
    expect(results[2].ok).toBe(false);
    expect(!results[2].ok && results[2].error).toEqual({ line: 3, path: '', message: 'line is longer than the 4 MiB limit' });
    expect(results[3]).toEqual({ line: 4, ok: true, value: { n: 2 } });
  });

  it('reports an over-limit last line that has no line break', () => {
    const p = file('tail.jsonl', `{"a":1}\n"${'q'.repeat(50)}"`);
    expect(summary(readJsonlSync(p, { maxLineBytes: 20 }))).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, error: 'line is longer than the 20 bytes limit' },
    ]);
  });

  it('closes the file when the reader is abandoned', () => {
    const p = file('abandon.jsonl', '{"a":1}\n{"a":2}\n');
    const before = fs.readdirSync('/proc/self/fd').length;
    for (const r of readJsonlSync(p)) {
      expect(r.line).toBe(1);
      break;
    }
    expect(fs.readdirSync('/proc/self/fd').length).toBe(before);
  });

  it('throws when the file cannot be opened', () => {
    expect(() => Array.from(readJsonlSync(path.join(tmp, 'missing.jsonl')))).toThrow(/ENOENT/);
  });
});

describe('readJsonlFromString', () => {
  it('gives the same results as the file reader', () => {
    const text = '\uFEFF{"a":1}\r\n\r\nnot json\n[1,2]';
    expect(summary(readJsonlFromString(text))).toEqual(summary(readJsonlSync(file('same.jsonl', text))));
    expect(summary(readJsonlFromString(text))).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, error: expect.stringMatching(/^line is not valid JSON/) },
      { line: 4, value: [1, 2] },
    ]);
  });
});
