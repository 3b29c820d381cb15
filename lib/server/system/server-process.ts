/**
 * Which of the server's processes this one is. `npm start` (lib/cli/serve.mjs) may run several on one port
 * (CONCORD_PROCESSES, decision 0049); the launcher gives each CONCORD_PROCESS_INDEX, and the first process of a start
 * also CONCORD_CLEARS_LEFTOVERS. A server started by `next start` alone has neither and is the only process: it does
 * everything.
 */
export type ServerProcess = {
  index: number;
  /** Keeps the backup schedule: one timer per server, not one per process. */
  keepsSchedule: boolean;
  /**
   * Clears what a killed server left in the uploads and backup folders. Only the first process of a start does,
   * before the others listen: a process started again after a crash must not delete an upload or a backup another
   * process is writing at that moment.
   */
  clearsLeftovers: boolean;
  /** Started by the launcher as one of several processes (which waits to hear that it has opened the database). */
  launched: boolean;
};

export function serverProcess(): ServerProcess {
  const index = process.env.CONCORD_PROCESS_INDEX;
  if (index === undefined) return { index: 0, keepsSchedule: true, clearsLeftovers: true, launched: false };
  return {
    index: Number(index),
    keepsSchedule: index === '0',
    clearsLeftovers: process.env.CONCORD_CLEARS_LEFTOVERS === '1',
    launched: true,
  };
}
