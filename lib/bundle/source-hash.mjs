/**
 * The fingerprint of a source tree: a SHA-256 over the path and content of every file under `dirs` and of the
 * `rootFiles` that exist, paths sorted. Tests and notes are left out (they reach neither the web build nor the
 * bundled processes), and so are installed packages, builds and data. Used to tell whether the web build
 * (build-if-changed.mjs) or the bundled processes (process-bundle.mjs) are of the sources now on disk.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SKIP_DIRS = new Set(['node_modules', '.next', '.git', 'data', '.test-reports']);
/** Tests and notes do not reach the build. */
const SKIP_FILE = /(\.test\.[cm]?[jt]sx?|\.md)$/;

export function sourceHash(root, dirs, rootFiles) {
  const files = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(/*turbopackIgnore: true*/ root, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(child);
      } else if (entry.isFile() && !SKIP_FILE.test(entry.name)) files.push(child);
    }
  };
  for (const dir of dirs) if (fs.existsSync(path.join(/*turbopackIgnore: true*/ root, dir))) walk(dir);
  for (const file of rootFiles) if (fs.existsSync(path.join(/*turbopackIgnore: true*/ root, file))) files.push(file);
  files.sort();
  const hash = crypto.createHash('sha256');
  for (const file of files) {
    hash.update(file);
    hash.update('\0');
    hash.update(fs.readFileSync(path.join(/*turbopackIgnore: true*/ root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}
