import { execFileSync } from 'node:child_process';

/** Runs the concord CLI on the database the end-to-end server uses; returns stdout. */
export function concord(args: string[], input?: string): string {
  return execFileSync(process.execPath, ['lib/cli/bin.mjs', ...args], {
    env: { ...process.env, CONCORD_DB: process.env.CONCORD_E2E_DB },
    input,
    encoding: 'utf8',
  });
}
