/**
 * The CLI as one JavaScript file, made by esbuild from `lib/cli/main.ts` and what it imports, and kept under
 * `node_modules/.cache/concord-cli/` by the fingerprint of its sources. Loading one file takes about a third of the
 * time tsx takes to compile and load the few hundred modules behind it (1.6 s → 0.55 s per command on two cores):
 * most of a short command's time, and of the tests that run the CLI as a user does.
 *
 * Packages stay outside the bundle (Node loads them from node_modules as before, native ones included); the sources
 * are read through the same tsconfig paths and the react-server condition as under tsx. A changed source file,
 * lockfile or tsconfig gives a new fingerprint, hence a new bundle; older bundles are removed when one is written.
 * No source map: reading one made every command slower by a fifth; the bundle is not minified, keeps the names of
 * functions, and esbuild heads each module's code with its source path, so a stack trace still leads to the code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { sourceHash } from './build-if-changed.mjs';

/** What the CLI is built from: its own code and the server's, never app/ or components/ (the web pages). */
const CLI_DIRS = ['lib', 'db'];
const CLI_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];

/** The path of the bundle of the sources now under `root`, made first if there is none for them yet. */
export function cliBundle(root) {
  const dir = path.join(root, 'node_modules', '.cache', 'concord-cli');
  const name = `main-${sourceHash(root, CLI_DIRS, CLI_FILES).slice(0, 16)}.mjs`;
  const file = path.join(dir, name);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  // Two commands started at once may both build: each writes a name of its own and renames it over the same bundle.
  const tmp = path.join(dir, `${process.pid}-${name}.tmp`);
  buildSync({
    entryPoints: [path.join(root, 'lib', 'cli', 'main.ts')],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    conditions: ['react-server'],
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'silent',
  });
  fs.renameSync(tmp, file);
  for (const old of fs.readdirSync(dir)) {
    if (old !== name && old.startsWith('main-') && old.endsWith('.mjs')) fs.rmSync(path.join(dir, old), { force: true });
  }
  return file;
}
