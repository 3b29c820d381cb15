import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { publicDataDir, publicDataPath } from './public-data';

const saved = process.env.CONCORD_PUBLIC_DATA;
afterEach(() => {
  if (saved === undefined) delete process.env.CONCORD_PUBLIC_DATA;
  else process.env.CONCORD_PUBLIC_DATA = saved;
});

describe('publicDataDir', () => {
  it('uses CONCORD_PUBLIC_DATA when set, resolved against the working directory', () => {
    process.env.CONCORD_PUBLIC_DATA = 'some/where';
    expect(publicDataDir()).toBe(path.resolve(process.cwd(), 'some/where'));
  });

  it('defaults to ../shared/data beside the repository when it exists, else to data/public inside it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-public-'));
    try {
      const repo = path.join(root, 'repo');
      fs.mkdirSync(repo);
      delete process.env.CONCORD_PUBLIC_DATA;
      expect(publicDataDir(repo)).toBe(path.join(repo, 'data/public'));
      fs.mkdirSync(path.join(root, 'shared/data'), { recursive: true });
      expect(publicDataDir(repo)).toBe(path.join(root, 'shared/data'));
      process.env.CONCORD_PUBLIC_DATA = '';
      expect(publicDataDir(repo)).toBe(path.join(root, 'shared/data'));
      process.env.CONCORD_PUBLIC_DATA = 'elsewhere';
      expect(publicDataDir(repo)).toBe(path.join(repo, 'elsewhere'));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('publicDataPath explains how to fix a missing dataset', () => {
    process.env.CONCORD_PUBLIC_DATA = '/nonexistent/concord-data';
    expect(() => publicDataPath('mathdial', 'test.jsonl')).toThrow(
      /Public data not found: \/nonexistent\/concord-data\/mathdial\/test\.jsonl\. Set CONCORD_PUBLIC_DATA/,
    );
  });
});
