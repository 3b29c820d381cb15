import fs from 'node:fs';
import path from 'node:path';
import type { JudgeRunStatusDto } from '@/lib/server/judges/dto';
import { createJudgeEndpoint, deleteJudgeEndpoint, listJudgeEndpoints } from '@/lib/server/judges/endpoints';
import { cancelJudgeRun, findJudgeRunId, judgeRunStatus, launchJudgeRun, launchJudgeRunAtUrl } from '@/lib/server/judges/judges';
import { runJudge } from '@/lib/server/judges/runner';
import { parseStudyId } from '@/lib/server/studies/studies';
import { cliActor } from '@/lib/server/system/system';
import { invalid } from '@/lib/server/errors';
import type { Command } from './commands';
import { required, str } from './format';

type Values = Record<string, string | boolean | undefined>;

/** DESIGN's `--json` shape, in its order. */
const statusJson = (s: JudgeRunStatusDto) => ({
  run: s.run,
  items: s.items,
  requests: s.requests,
  sent: s.sent,
  cached: s.cached,
  answered: s.answered,
  unreadable: s.unreadable,
  failed: s.failed,
  tokensIn: s.tokensIn,
  tokensOut: s.tokensOut,
});

function statusText(s: JudgeRunStatusDto) {
  const cost = s.cost === null ? '' : `, estimated cost $${s.cost.toFixed(4)}`;
  return (
    `Judge run "${s.run}" (study ${s.studyId}, ${s.model} at ${s.endpoint}, template ${s.template.name} v${s.template.version}): ${s.state.replace('_', ' ')}` +
    `${s.reason ? ` — ${s.reason}` : ''}\n` +
    `  ${s.items} items, ${s.requests} requests: ${s.answered} answered (${s.sent} sent, ${s.cached} from the cache), ` +
    `${s.unreadable} unreadable, ${s.failed} failed\n` +
    `  tokens ${s.tokensIn} in, ${s.tokensOut} out${cost}${s.meanLatencyMs === null ? '' : `, mean latency ${s.meanLatencyMs} ms`}\n`
  );
}

function readTemplate(file: string): string {
  const resolved = path.resolve(file);
  if (!fs.existsSync(resolved)) throw invalid(`No such file: ${file}`);
  return fs.readFileSync(resolved, 'utf8');
}

function runId(v: Values, name: string | undefined) {
  if (!name) throw invalid('Name the judge run.');
  const study = str(v, 'study');
  return findJudgeRunId(cliActor(), name, study === undefined ? undefined : parseStudyId(study));
}

const num = (v: Values, key: string) => str(v, key);

export const JUDGE_RUN_COMMANDS: Command[] = [
  {
    name: 'judge run',
    usage:
      'judge run --study S --name RUN --endpoint NAME|URL --model M --prompt FILE.json [--api-key-env VAR] [--samples K] [--temperature T]\n' +
      '          [--max-tokens N] [--seed N] [--concurrency C] [--both-orders | --one-order] [--limit N] [--timeout-ms N]\n' +
      '          [--max-attempts N] [--circuit-after N] [--price-in USD] [--price-out USD] [--json]',
    summary:
      'Runs an LLM judge on a pairwise or rubric study through an OpenAI-compatible endpoint and stores its verdicts as judge run RUN.\n' +
      '      Pairwise: both orders by default. A second call with the same --name resumes the run: only requests without an answer are sent.\n' +
      '      --endpoint NAME: an endpoint an admin configured (its URL, key variable and prices; the model must be one of its).\n' +
      '      --endpoint URL: any OpenAI-compatible base URL (no ? or #), the key read from the variable named by --api-key-env\n' +
      '      (never AUTH_*, CONCORD_*, NODE_* or a system variable). Prices are per million tokens.',
    options: {
      study: { type: 'string' },
      name: { type: 'string' },
      endpoint: { type: 'string' },
      model: { type: 'string' },
      prompt: { type: 'string' },
      'api-key-env': { type: 'string' },
      samples: { type: 'string' },
      temperature: { type: 'string' },
      'max-tokens': { type: 'string' },
      seed: { type: 'string' },
      concurrency: { type: 'string' },
      'both-orders': { type: 'boolean' },
      'one-order': { type: 'boolean' },
      limit: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'max-attempts': { type: 'string' },
      'circuit-after': { type: 'string' },
      'price-in': { type: 'string' },
      'price-out': { type: 'string' },
      json: { type: 'boolean' },
    },
    async run(v) {
      if (v['both-orders'] && v['one-order']) throw invalid('Give --both-orders or --one-order, not both.');
      const actor = cliActor();
      const endpoint = required(v, 'endpoint');
      // A URL has a scheme; anything else is the name of a configured endpoint, which brings its own key and prices.
      const atUrl = /^[a-z][a-z0-9+.-]*:/i.test(endpoint);
      if (!atUrl)
        for (const o of ['api-key-env', 'price-in', 'price-out'])
          if (v[o] !== undefined)
            throw invalid(`--${o} is the endpoint's own setting; give it with --endpoint URL, or ask an admin to change "${endpoint}".`);
      const launch = atUrl ? launchJudgeRunAtUrl : launchJudgeRun;
      const launched = launch(actor, parseStudyId(required(v, 'study')), {
        name: required(v, 'name'),
        endpoint,
        model: required(v, 'model'),
        template: readTemplate(required(v, 'prompt')),
        ...(atUrl ? { apiKeyEnv: str(v, 'api-key-env'), priceIn: num(v, 'price-in'), priceOut: num(v, 'price-out') } : {}),
        samples: num(v, 'samples'),
        temperature: num(v, 'temperature'),
        maxTokens: num(v, 'max-tokens'),
        seed: num(v, 'seed'),
        concurrency: num(v, 'concurrency'),
        bothOrders: !v['one-order'],
        limit: num(v, 'limit'),
        timeoutMs: num(v, 'timeout-ms'),
        maxAttempts: num(v, 'max-attempts'),
        circuitAfter: num(v, 'circuit-after'),
      });
      process.stderr.write(`${launched.resumed ? 'Resuming' : 'Starting'} judge run "${launched.name}" (id ${launched.runId})\n`);
      await runJudge(launched.runId, { log: (line) => process.stderr.write(`${line}\n`) });
      const s = judgeRunStatus(actor, launched.runId);
      process.stdout.write(v.json ? `${JSON.stringify(statusJson(s))}\n` : statusText(s));
      if (s.state !== 'done') {
        process.stderr.write(`concord judge run: the run is ${s.state.replace('_', ' ')}${s.reason ? `: ${s.reason}` : ''}\n`);
        return 1;
      }
    },
  },
  {
    name: 'judge status',
    usage: 'judge status RUN [--study S] [--json]',
    summary: 'Progress of a judge run launched from Concord: requests answered, from the cache, unreadable, failed, tokens.',
    options: { study: { type: 'string' }, json: { type: 'boolean' } },
    run(v, [name]) {
      const s = judgeRunStatus(cliActor(), runId(v, name));
      process.stdout.write(v.json ? `${JSON.stringify(statusJson(s))}\n` : statusText(s));
    },
  },
  {
    name: 'judge cancel',
    usage: 'judge cancel RUN [--study S]',
    summary:
      'Cancels a judge run launched from Concord and ends the process running it (returning once it is gone); the answers stored so far stay.',
    options: { study: { type: 'string' } },
    async run(v, [name]) {
      const s = await cancelJudgeRun(cliActor(), runId(v, name));
      process.stdout.write(`Judge run "${s.run}" cancelled: ${s.answered} of ${s.requests} requests answered.\n`);
    },
  },
  {
    name: 'judge endpoint add',
    usage: 'judge endpoint add --name NAME --url BASE_URL --models M1,M2 [--key-env VAR] [--price-in USD] [--price-out USD] [--json]',
    summary:
      'Configures an endpoint leads may run judges against (as an admin does on the "Judge endpoints" page): its chat-completions\n' +
      '      base URL, the environment variable holding its key (its name; the server and runners read the value), the models leads may choose.',
    options: {
      name: { type: 'string' },
      url: { type: 'string' },
      models: { type: 'string' },
      'key-env': { type: 'string' },
      'price-in': { type: 'string' },
      'price-out': { type: 'string' },
      json: { type: 'boolean' },
    },
    run(v) {
      const e = createJudgeEndpoint(cliActor(), {
        name: required(v, 'name'),
        baseUrl: required(v, 'url'),
        models: required(v, 'models'),
        keyEnv: str(v, 'key-env'),
        priceIn: str(v, 'price-in'),
        priceOut: str(v, 'price-out'),
      });
      process.stdout.write(v.json ? `${JSON.stringify(e)}\n` : `Judge endpoint "${e.name}" added (${e.baseUrl}).\n`);
    },
  },
  {
    name: 'judge endpoint list',
    usage: 'judge endpoint list [--json]',
    summary: 'The judge endpoints an admin configured: name, base URL, key variable (and whether it is set here), models, prices.',
    options: { json: { type: 'boolean' } },
    run(v) {
      const list = listJudgeEndpoints(cliActor());
      if (v.json) return void process.stdout.write(`${JSON.stringify(list)}\n`);
      for (const e of list)
        process.stdout.write(
          `${e.name}\t${e.baseUrl}\t${e.keyEnv ? `${e.keyEnv}${e.keySet ? '' : ' (not set)'}` : 'no key'}\t${e.models.join(', ')}\n`,
        );
    },
  },
  {
    name: 'judge endpoint remove',
    usage: 'judge endpoint remove NAME',
    summary: 'Removes a judge endpoint that no unfinished run uses.',
    run(_v, [name]) {
      const e = listJudgeEndpoints(cliActor()).find((x) => x.name === name);
      if (!e) throw invalid(`No judge endpoint is named "${name ?? ''}".`);
      deleteJudgeEndpoint(cliActor(), e.id);
      process.stdout.write(`Judge endpoint "${e.name}" removed.\n`);
    },
  },
];
