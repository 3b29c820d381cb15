import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the public datasets live (MathDial, Bridge, PandaLM, …). They are read
 * at seed or import time and never committed to the repository.
 * `CONCORD_PUBLIC_DATA` if set (relative paths against the working directory);
 * else `../shared/data` next to the repository root when that folder exists;
 * else `data/public` inside the repository, where `npx concord data fetch`
 * puts them on a machine without the shared folder. The working directory is
 * the repository root for the app, the CLI and the tests.
 */
export function publicDataDir(cwd: string = process.cwd()): string {
  const fromEnv = process.env.CONCORD_PUBLIC_DATA;
  if (fromEnv) return path.resolve(cwd, fromEnv);
  const shared = path.resolve(cwd, '../shared/data');
  return fs.existsSync(shared) ? shared : path.resolve(cwd, 'data/public');
}

/**
 * The path of a file or folder inside publicDataDir(), or an Error that says
 * where it was looked for and how to point Concord at the data.
 */
export function publicDataPath(...segments: string[]): string {
  const full = path.join(publicDataDir(), ...segments);
  if (!fs.existsSync(full)) {
    throw new Error(
      `Public data not found: ${full}. Set CONCORD_PUBLIC_DATA to the folder that holds the public datasets ` +
        `(mathdial/, bridge/, pandalm/, …), or fetch them with \`npx concord data fetch\`.`,
    );
  }
  return full;
}

/**
 * What the seed says, once, about the demo studies it could not make: each one with the file looked for, and how to
 * add them later (the seed adds missing demo studies to a demo database).
 */
export function skippedDatasetsMessage(skipped: readonly { what: string; lookedFor: string }[], dir = publicDataDir()): string {
  return [
    `Skipped ${skipped.length} demo ${skipped.length === 1 ? 'study' : 'studies'}: their public data is not in ${dir}.`,
    ...skipped.map((s) => `  - ${s.what}: ${s.lookedFor} was not found`),
    'To add them: run `npx concord data fetch` (or set CONCORD_PUBLIC_DATA to a folder laid out like the shared data',
    'README), then `npm run demo` or `npx concord seed` again; the missing studies are added to this demo database.',
  ].join('\n');
}
