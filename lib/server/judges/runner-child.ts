/**
 * Runs one launched judge run in a process of its own, started detached by the web server (`startJudgeRunner`):
 * it outlives the request, the page and the server. Argument: a JSON document { runId }. Its environment is only
 * what it needs (run-endpoint.ts `runnerEnvironment`): the run's API key is in RUNNER_KEY_ENV, read here and
 * nowhere else.
 */
import { closeDb, getDb } from '@/db/client';
import { setLaunchState } from '@/db/queries/judge-launches';
import { DomainError } from '../errors';
import { redactKey } from './redact';
import { RUNNER_KEY_ENV } from './run-endpoint';
import { runJudge } from './runner';

const { runId } = JSON.parse(process.argv[2] ?? '{}') as { runId: number };

const key = process.env[RUNNER_KEY_ENV];
runJudge(runId, { readKey: () => key })
  .catch((e) => {
    // Another live runner has it: nothing to do. Anything else stops the run with the reason shown to the lead.
    if (e instanceof DomainError && e.code === 'conflict') return;
    setLaunchState(getDb(), runId, ['running'], 'circuit_open', redactKey(`the runner stopped: ${(e as Error)?.message ?? e}`, key));
  })
  .finally(() => closeDb());
