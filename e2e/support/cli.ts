import { cliInBatch } from '../../test/cli-batch';

/**
 * Runs the concord CLI on the database the end-to-end server uses; returns stdout (throws on a non-zero exit, with
 * stderr in the message). One `concord batch` process per worker runs the commands (test/cli-batch.ts).
 */
export function concord(args: string[], input?: string): string {
  return cliInBatch({ ...process.env, CONCORD_DB: process.env.CONCORD_E2E_DB }, args, input);
}
