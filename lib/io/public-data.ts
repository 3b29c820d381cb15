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
 * What the seed says when a dataset is missing: what is skipped, the path looked for, and how to provide it.
 */
export function skippedDatasetMessage(what: string, lookedFor: string): string {
  return (
    `Skipped ${what}: ${lookedFor} was not found. To include it, set CONCORD_PUBLIC_DATA to a folder laid out like ` +
    `the shared data README (mathdial/test.jsonl, bridge/test.json and bridge/responses/, pandalm/testset-v1.json and ` +
    `its judge files), or run \`npx concord data fetch\`, and seed an empty database again.`
  );
}
