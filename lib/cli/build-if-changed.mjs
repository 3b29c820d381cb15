#!/usr/bin/env node
/**
 * `npm run demo`'s build step: runs `next build` only when the source changed since the last successful build.
 *
 * The fingerprint is a SHA-256 over the path and content of every file the build reads (the app's source folders,
 * the configuration files and the lockfile; tests, docs and data are left out), stored in `.next/concord-source-hash`
 * after a build succeeds. A failed or interrupted build leaves no fingerprint, so the next run builds again.
 *
 *   node lib/cli/build-if-changed.mjs [--root DIR] [-- COMMAND ARGS…]   (default command: next build)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceHash } from '../bundle/source-hash.mjs';

/** Folders whose files go into the build. */
export const SOURCE_DIRS = ['app', 'components', 'lib', 'db', 'public'];
/** Files at the root that change what the build makes. */
export const SOURCE_FILES = [
  'package.json',
  'package-lock.json',
  'next.config.ts',
  'tsconfig.json',
  'postcss.config.mjs',
  'proxy.ts',
  'instrumentation.ts',
];
export const HASH_FILE = path.join('.next', 'concord-source-hash');

/** The fingerprint of what the web server's build reads under `root` (source-hash.mjs). */
export const buildSourceHash = (root) => sourceHash(root, SOURCE_DIRS, SOURCE_FILES);

/** Why a build is needed, or null when the last build is of this very source. */
export function buildNeeded(root, hash = buildSourceHash(root)) {
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) return 'there is no build yet';
  const stored = path.join(root, HASH_FILE);
  if (!fs.existsSync(stored)) return 'the last build has no recorded source fingerprint';
  if (fs.readFileSync(stored, 'utf8').trim() !== hash) return 'the source changed since the last build';
  return null;
}

/** Records `hash` as the fingerprint of the build now in `.next` (written to a temporary name, then renamed). */
export function recordBuild(root, hash) {
  const target = path.join(root, HASH_FILE);
  const tmp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${hash}\n`);
  fs.renameSync(tmp, target);
}

function main(argv) {
  let root = process.cwd();
  let command = [process.execPath, path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'];
  const sep = argv.indexOf('--');
  const own = sep === -1 ? argv : argv.slice(0, sep);
  if (sep !== -1) command = argv.slice(sep + 1);
  for (let i = 0; i < own.length; i++) {
    if (own[i] === '--root' && own[i + 1]) root = path.resolve(own[++i]);
    else {
      console.error(`build-if-changed: unknown argument "${own[i]}". Usage: build-if-changed [--root DIR] [-- COMMAND…]`);
      return 2;
    }
  }
  const hash = buildSourceHash(root);
  const why = buildNeeded(root, hash);
  if (!why) {
    console.log(`Build is up to date (source ${hash.slice(0, 12)}); not rebuilding.`);
    return 0;
  }
  // A build that fails half-way must not leave the old fingerprint beside its partial output.
  fs.rmSync(path.join(root, HASH_FILE), { force: true });
  console.log(`Building: ${why}.`);
  const r = spawnSync(command[0], command.slice(1), { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`Build failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}); nothing recorded.`);
    return r.status || 1;
  }
  // The source may have changed while the build ran: record what was hashed before, so that change is built next time.
  recordBuild(root, hash);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
