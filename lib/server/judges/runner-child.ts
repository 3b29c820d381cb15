/**
 * Runs one launched judge run in a process of its own, started detached by the web server (`startJudgeRunner`):
 * it outlives the request, the page and the server. Argument: a JSON document { runId }. The API key is read from
 * the environment variable the run names, here and nowhere else.
 */
import { closeDb, getDb } from '@/db/client';
import { setLaunchState } from '@/db/queries/judge-launches';
import { DomainError } from '../errors';
import { runJudge } from './runner';

const { runId } = JSON.parse(process.argv[2] ?? '{}') as { runId: number };

runJudge(runId)
  .catch((e) => {
    // Another live runner has it: nothing to do. Anything else stops the run with the reason shown to the lead.
    if (e instanceof DomainError && e.code === 'conflict') return;
    setLaunchState(getDb(), runId, ['running'], 'circuit_open', `the runner stopped: ${(e as Error)?.message ?? e}`);
  })
  .finally(() => closeDb());
