import 'server-only';
import type { Db } from '@/db/client';
import { findEndpoint, isEndpointKeyVariable } from '@/db/queries/judge-endpoints';
import type { LaunchRow } from '@/db/queries/judge-launches';
import { databasePath } from '@/lib/env';
import { endpointUrlRefusal, keyVariableRefusal } from '@/lib/validation/judge-endpoints';
import { redactKey } from './redact';

/*
 * Where a run sends its requests and which environment variable holds the key, read when its runner starts: the
 * admin-configured endpoint's current URL and variable, or, for a run the command line pointed at a URL directly,
 * what it named then. The deny rule of key variables is applied here again, so no row written before it (or by
 * hand) can make a runner send AUTH_SECRET or a CONCORD_* setting.
 */

/** The one variable a runner process started by the web server reads its key from (a CONCORD_* name, so no endpoint can be configured to read it). */
export const RUNNER_KEY_ENV = 'CONCORD_JUDGE_API_KEY';

export type RunTarget = { ok: true; url: string; keyEnv: string | null } | { ok: false; reason: string };

export function runTarget(db: Db, launch: Pick<LaunchRow, 'endpointId' | 'endpoint' | 'apiKeyEnv' | 'model'>): RunTarget {
  let url = launch.endpoint;
  let keyEnv = launch.apiKeyEnv;
  if (launch.endpointId !== null) {
    const e = findEndpoint(db, launch.endpointId);
    if (!e) return { ok: false, reason: 'its judge endpoint was removed by an admin' };
    if (!e.models.includes(launch.model)) return { ok: false, reason: `the endpoint ${e.name} no longer offers the model ${launch.model}` };
    url = e.baseUrl;
    keyEnv = e.keyEnv;
  }
  const badUrl = endpointUrlRefusal(url);
  if (badUrl) return { ok: false, reason: `the endpoint URL ${badUrl}` };
  const badKey = keyEnv === null ? null : keyVariableRefusal(keyEnv);
  if (badKey) return { ok: false, reason: `the endpoint's key variable is refused: ${badKey}` };
  return { ok: true, url, keyEnv };
}

/**
 * Removes from a run's stored text, as it is shown, the values of the variables it names (its endpoint's and its
 * own): text stored before answers were redacted as they arrive must not show a key either. The values are only
 * compared here, never sent.
 */
export function shownTextOf(db: Db, launch: Parameters<typeof runTarget>[1], from: NodeJS.ProcessEnv = process.env) {
  const names = new Set([launch.apiKeyEnv, launch.endpointId === null ? null : findEndpoint(db, launch.endpointId)?.keyEnv]);
  const keys = [...names].flatMap((n) => (n && from[n] ? [from[n]] : []));
  return (text: string) => keys.reduce((t, key) => redactKey(t, key), text);
}

/**
 * The whole environment of a runner process the web server starts: what Node and the database need, and the
 * run's key under RUNNER_KEY_ENV — never the server's environment, which holds AUTH_SECRET and every other secret.
 */
export function runnerEnvironment(db: Db, launch: Parameters<typeof runTarget>[1], from: NodeJS.ProcessEnv = process.env) {
  const env: Record<string, string> = { CONCORD_DB: databasePath() };
  for (const name of ['PATH', 'NODE_ENV', 'TZ', 'TMPDIR', 'CONCORD_MIGRATIONS'] as const) {
    const value = from[name];
    if (value) env[name] = value;
  }
  const target = runTarget(db, launch);
  // A refused target gets no key: the runner stops the run with the reason (it resolves the target itself). Nor does
  // a variable that is not on the admin's list (a run the command line, or a lead before issue 21, pointed at a
  // variable of its own): the server hands out only the keys of configured endpoints.
  if (target.ok && target.keyEnv && isEndpointKeyVariable(db, target.keyEnv)) {
    const key = from[target.keyEnv];
    if (key) env[RUNNER_KEY_ENV] = key;
  }
  // Next.js types NODE_ENV as always present; here it is passed only when the server has it.
  return env as unknown as NodeJS.ProcessEnv;
}
