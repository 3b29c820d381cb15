/**
 * Concord's own processes as JavaScript files, made by esbuild from their TypeScript sources: the CLI
 * (`lib/cli/main.ts`) and the children the web server starts (an import, the report process, a judge runner, a
 * backup). Loading one bundled file takes about a third of the time tsx takes to compile and load the few hundred
 * modules behind it (1.6 s → 0.55 s per CLI command on two cores): most of a short command's time, and each large
 * upload, judge run and dashboard's first report paid it once more in the server.
 *
 * One folder per source state, `node_modules/.cache/concord-bundle/<fingerprint>/`, holding one self-contained file
 * per process (`cli.mjs`, `import-child.mjs`, …): a changed file under `lib/` or `db/`, the lockfile or tsconfig gives
 * a new fingerprint, hence a new folder, made on the first start that needs it; older folders are removed when one
 * is written. Each file holds all of its own code (no shared chunks), so a process still running from an older
 * folder never reads a file of it after its start. Packages stay outside the bundle (Node loads them from
 * node_modules as before, native ones included); the sources are read through the same tsconfig paths and the
 * react-server condition as under tsx. No source map: reading one made every command slower by a fifth; the bundle
 * is not minified, keeps the names of functions, and esbuild heads each module's code with its source path, so a
 * stack trace still leads to the code.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { sourceHash } from './source-hash.mjs';

/** Each bundled process by name, and the source it starts from. */
export const PROCESSES = {
  cli: 'lib/cli/main.ts',
  'import-child': 'lib/server/imports/import-child.ts',
  'report-child': 'lib/server/analytics/report-child.ts',
  'runner-child': 'lib/server/judges/runner-child.ts',
  'backup-child': 'lib/server/system/backup-child.ts',
};

/** What the processes are built from: the CLI's and the server's code, never app/ or components/ (the web pages). */
const SOURCE_DIRS = ['lib', 'db'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];

const cacheDir = (root) => path.join(/*turbopackIgnore: true*/ root, 'node_modules', '.cache', 'concord-bundle');

/**
 * The folder of the bundled processes for the sources now under `root`, built first if there is none for them yet.
 * `processes` (name → source) is for tests; its names go into the fingerprint.
 */
export function processBundle(root, processes = PROCESSES) {
  const names = Object.keys(processes).sort();
  const fingerprint = crypto
    .createHash('sha256')
    .update(sourceHash(root, SOURCE_DIRS, SOURCE_FILES))
    .update(names.map((n) => `\n${n}=${processes[n]}`).join(''))
    .digest('hex');
  const dir = cacheDir(root);
  const name = fingerprint.slice(0, 16);
  const target = path.join(dir, name);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(dir, { recursive: true });
  // Two processes started at once may both build: each writes a folder of its own and the first rename wins.
  const tmp = path.join(dir, `${name}.${process.pid}.tmp`);
  try {
    buildSync({
      entryPoints: Object.fromEntries(names.map((n) => [n, path.join(/*turbopackIgnore: true*/ root, processes[n])])),
      outdir: tmp,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      conditions: ['react-server'],
      tsconfig: path.join(/*turbopackIgnore: true*/ root, 'tsconfig.json'),
      logLevel: 'silent',
    });
    fs.renameSync(tmp, target);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    // Another process's rename got there first: its folder is the same build.
    if (!fs.existsSync(target)) throw e;
  }
  for (const old of fs.readdirSync(dir)) {
    if (old !== name && /^[0-9a-f]{16}$/.test(old)) fs.rmSync(path.join(dir, old), { recursive: true, force: true });
  }
  return target;
}

/** The bundled file of process `name` (a key of `PROCESSES`) for the sources now under `root`. */
export function bundledProcess(root, name) {
  if (!(name in PROCESSES)) throw new Error(`no bundled process named "${name}"`);
  return path.join(processBundle(root), `${name}.mjs`);
}
