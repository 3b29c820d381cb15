import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * A small source tree of a test's own: a fresh temporary folder before each test, holding `files` (path → text),
 * removed after it. `write` adds or changes a file, making its folders on the way.
 */
export function useTempTree(prefix: string, files: Record<string, string>) {
  const tree = {
    root: '',
    write(rel: string, text: string) {
      fs.mkdirSync(path.dirname(path.join(tree.root, rel)), { recursive: true });
      fs.writeFileSync(path.join(tree.root, rel), text);
    },
  };
  beforeEach(() => {
    tree.root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    for (const [rel, text] of Object.entries(files)) tree.write(rel, text);
  });
  afterEach(() => fs.rmSync(tree.root, { recursive: true, force: true }));
  return tree;
}

/** A temporary folder for a whole test file's files: made before its first test, removed after its last. */
export function useTempDir(prefix: string) {
  const tmp = { dir: '' };
  beforeAll(() => {
    tmp.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterAll(() => fs.rmSync(tmp.dir, { recursive: true, force: true }));
  return tmp;
}
