import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made = new Set<string>();

/**
 * A new temporary folder (`prefix` + random suffix) for a browser spec's files, removed when the Playwright worker
 * that runs the spec exits, whether its tests passed or not (a worker runs many spec files and ends normally). Vitest
 * ends its workers with a signal, so its test files use `useTempDir` (test/temp-tree.ts), removed after their last test.
 */
export function tempDir(prefix: string): string {
  if (made.size === 0) process.once('exit', removeAll);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  return dir;
}

function removeAll() {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  made.clear();
}
