import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import type { ParseArgsConfig } from 'node:util';
import { seedDemo } from '@/db/seed';
import { exportFlows } from '@/lib/server/exports';
import { flowReport } from '@/lib/server/flow-report';
import { importItems } from '@/lib/server/imports';
import { createStudy, openStudy, parseStudyId, setStudyMembers } from '@/lib/server/studies';
import { cliActor } from '@/lib/server/system';
import { createUser } from '@/lib/server/users';
import { invalid } from '@/lib/server/errors';

type Values = Record<string, string | boolean | undefined>;

export type Command = {
  name: string;
  usage: string;
  summary: string;
  options?: ParseArgsConfig['options'];
  run: (values: Values, positionals: string[]) => Promise<void> | void;
};

const str = (v: Values, key: string) => (typeof v[key] === 'string' ? (v[key] as string) : undefined);

function required(v: Values, key: string): string {
  const value = str(v, key);
  if (!value) throw invalid(`--${key} is required.`);
  return value;
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw invalid('Give the password on standard input, e.g. `echo "$PASSWORD" | npx concord user add …`.');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

function existingFile(file: string | undefined): string {
  if (!file) throw invalid('Name the file to import.');
  const resolved = path.resolve(file);
  if (!fs.existsSync(resolved)) throw invalid(`No such file: ${file}`);
  return resolved;
}

/** Writes lines to stdout, waiting when the pipe is full so memory stays flat. */
async function writeLines(lines: Iterable<string>) {
  for (const line of lines) {
    if (!process.stdout.write(line)) await once(process.stdout, 'drain');
  }
}

export const COMMANDS: Command[] = [
  {
    name: 'user add',
    usage: 'user add USERNAME [--role admin|lead|annotator] [--name "Display Name"]   (password on stdin)',
    summary: 'Creates an account.',
    options: { role: { type: 'string', default: 'annotator' }, name: { type: 'string' } },
    async run(v, [username]) {
      if (!username) throw invalid('Give the username.');
      const password = await readStdin();
      const user = await createUser(cliActor(), { username, displayName: str(v, 'name') ?? username, password, role: str(v, 'role') });
      process.stdout.write(`Created ${user.role} "${user.username}" (id ${user.id}).\n`);
    },
  },
  {
    name: 'study create',
    usage: 'study create --kind flow_review --name NAME [--guidelines FILE.md] [--pay-rate 0.50] [--reviewers N] [--json]',
    summary: 'Creates a draft study and prints its id.',
    options: {
      kind: { type: 'string' },
      name: { type: 'string' },
      guidelines: { type: 'string' },
      'pay-rate': { type: 'string' },
      reviewers: { type: 'string' },
      json: { type: 'boolean' },
    },
    run(v) {
      const guidelinesFile = str(v, 'guidelines');
      const study = createStudy(cliActor(), {
        kind: required(v, 'kind'),
        name: required(v, 'name'),
        guidelines: guidelinesFile ? fs.readFileSync(existingFile(guidelinesFile), 'utf8') : '',
        payRate: str(v, 'pay-rate') ?? 0,
        reviewersPerItem: str(v, 'reviewers'),
      });
      if (v.json) print({ id: study.id });
      else process.stdout.write(`${study.id}\n`);
    },
  },
  {
    name: 'study members',
    usage: 'study members STUDY USERNAME...',
    summary: 'Chooses the reviewers of a draft study (replaces the previous choice).',
    run(_v, [study, ...usernames]) {
      const dto = setStudyMembers(cliActor(), parseStudyId(study ?? ''), { usernames });
      process.stdout.write(`Study ${dto.id} reviewers: ${dto.members.map((m) => m.username).join(', ') || '(none)'}\n`);
    },
  },
  {
    name: 'study open',
    usage: 'study open STUDY',
    summary: 'Opens a draft study: makes the assignments from its stored seed.',
    run(_v, [study]) {
      const dto = openStudy(cliActor(), parseStudyId(study ?? ''));
      process.stdout.write(`Study ${dto.id} is open: ${dto.itemCount} items, ${dto.reviewersPerItem} reviewer(s) each.\n`);
    },
  },
  {
    name: 'import items',
    usage: 'import items --study STUDY [--format concord|mathdial] FILE',
    summary: 'Imports items (JSON Lines); a file with any bad line is refused whole.',
    options: { study: { type: 'string' }, format: { type: 'string', default: 'concord' } },
    run(v, [file]) {
      const report = importItems(cliActor(), parseStudyId(required(v, 'study')), existingFile(file), str(v, 'format')!);
      process.stdout.write(`Imported ${report.inserted} new item(s); ${report.unchanged} already present and unchanged (${report.records} records).\n`);
    },
  },
  {
    name: 'report flows',
    usage: 'report flows --study STUDY [--json]',
    summary: 'Flow review counts, discard reasons and per-reviewer throughput and payout.',
    options: { study: { type: 'string' }, json: { type: 'boolean' } },
    run(v) {
      const r = flowReport(cliActor(), parseStudyId(required(v, 'study')));
      if (v.json) {
        print(r);
        return;
      }
      const pct = (n: number) => (r.submitted ? ` (${((100 * n) / r.submitted).toFixed(1)} %)` : '');
      process.stdout.write(
        `${r.items} items, ${r.submitted} of ${r.assigned} reviews submitted\n` +
          `verified ${r.verified}${pct(r.verified)}, truncated ${r.truncated}${pct(r.truncated)}, discarded ${r.discarded}${pct(r.discarded)}\n` +
          Object.entries(r.discardReasons).map(([k, n]) => `  ${k}: ${n}\n`).join('') +
          r.reviewers.map((p) => `${p.username}: ${p.submitted}/${p.assigned}, ${(p.activeSeconds / 3600).toFixed(2)} h active, payout ${p.payout.toFixed(2)}\n`).join(''),
      );
    },
  },
  {
    name: 'export flows',
    usage: 'export flows --study STUDY [--what flows|decisions] [--format jsonl|csv]',
    summary: 'Streams verified flows (discarded left out, truncation applied) or every decision to stdout.',
    options: { study: { type: 'string' }, what: { type: 'string', default: 'flows' }, format: { type: 'string', default: 'jsonl' } },
    async run(v) {
      const out = exportFlows(cliActor(), parseStudyId(required(v, 'study')), str(v, 'what')!, str(v, 'format')!);
      await writeLines(out.lines);
    },
  },
  {
    name: 'seed',
    usage: 'seed [--if-empty]',
    summary: 'Loads the demo accounts and studies (MathDial from CONCORD_PUBLIC_DATA, KMP-style examples).',
    options: { 'if-empty': { type: 'boolean' } },
    async run(v) {
      const result = await seedDemo({ ifEmpty: !!v['if-empty'], log: (m) => process.stdout.write(`${m}\n`) });
      if (result.skipped) process.stdout.write('The database already has accounts; demo seed skipped.\n');
    },
  },
];
