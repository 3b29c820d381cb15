import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import type { ParseArgsConfig } from 'node:util';
import { seedDemo } from '@/lib/server/demo/seed';
import { backupDatabase } from '@/lib/server/system/backup';
import { restoreDatabase } from '@/lib/server/system/restore';
import { databasePath } from '@/lib/env';
import { exportFlows } from '@/lib/server/studies/exports';
import { flowReport } from '@/lib/server/studies/flow-report';
import { importItems } from '@/lib/server/imports/imports';
import { exportGroundTruth } from '@/lib/server/ground-truth/ground-truth';
import { importAnnotations } from '@/lib/server/imports/prior-annotations';
import {
  closeStudy,
  createStudy,
  openStudy,
  parseStudyId,
  setGroundTruthRule,
  setStudyCriteria,
  setStudyMembers,
} from '@/lib/server/studies/studies';
import { editStudy, replaceReviewer, setArchived, setDeadline } from '@/lib/server/studies/editing';
import { cliActor } from '@/lib/server/system/system';
import { getGoldSettings, setGoldOfItemNamed, setGoldSettings } from '@/lib/server/review/gold';
import { createUser } from '@/lib/server/accounts/users';
import { invalid } from '@/lib/server/errors';
import { isRubricCatalogName, RUBRIC_CATALOG_NAMES } from '@/lib/validation/rubric-catalogs';
import { required, str } from './format';

type Values = Record<string, string | boolean | undefined>;

export type Command = {
  name: string;
  usage: string;
  summary: string;
  options?: ParseArgsConfig['options'];
  /** false for commands that never touch the database (it is then neither opened nor created). */
  db?: boolean;
  /** May return the exit code; returning nothing means 0. */
  run: (values: Values, positionals: string[]) => Promise<void | number> | void | number;
};

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw invalid(`${file} is not valid JSON: ${(e as Error).message}`);
  }
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw invalid('Give the password on standard input, e.g. `echo "$PASSWORD" | npx concord user add …`.');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
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

/** `--dimensions`: a shipped catalog's name as is, anything else the path of a catalog file, read as text. */
function dimensionsArgument(value: string | undefined): string | undefined {
  if (value === undefined || isRubricCatalogName(value)) return value;
  const resolved = path.resolve(value);
  if (!fs.existsSync(resolved)) {
    throw invalid(`--dimensions: "${value}" is neither a shipped catalog (${RUBRIC_CATALOG_NAMES.join(', ')}) nor an existing file.`);
  }
  return fs.readFileSync(resolved, 'utf8');
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
    usage:
      'study create --kind flow_review|pairwise|rubric --name NAME [--guidelines FILE.md] [--pay-rate 0.50] [--reviewers N] [--seed N]\n' +
      '             [--criteria FILE.json|none] [--ground-truth adjudicated|majority|dawid_skene|mace]\n' +
      '             [--dimensions FILE.json|mrbench-v3|mrbench-v1|ok-reject] [--json]',
    summary:
      'Creates a draft study and prints its id. A rubric study needs --dimensions: a shipped catalog or a JSON file of your own\n' +
      '      (copied into the study and fixed from then on); its reviewers per item default to 2.',
    options: {
      dimensions: { type: 'string' },
      kind: { type: 'string' },
      name: { type: 'string' },
      guidelines: { type: 'string' },
      'pay-rate': { type: 'string' },
      reviewers: { type: 'string' },
      seed: { type: 'string' },
      criteria: { type: 'string' },
      'ground-truth': { type: 'string' },
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
        seed: str(v, 'seed'),
        groundTruthRule: str(v, 'ground-truth'),
        dimensions: dimensionsArgument(str(v, 'dimensions')),
      });
      const criteria = str(v, 'criteria');
      if (criteria) setStudyCriteria(cliActor(), study.id, criteria === 'none' ? [] : readJson(existingFile(criteria)));
      if (v.json) print({ id: study.id });
      else process.stdout.write(`${study.id}\n`);
    },
  },
  {
    name: 'study members',
    usage: 'study members STUDY USERNAME... [--sets] [--adjudicator USERNAME]',
    summary:
      'Chooses the reviewers of a draft study. With --sets (the KMP scheme) the reviewers, in the order given, form fixed groups of\n' +
      '      reviewers-per-item and the items are split into one set per group. The adjudicator settles pairwise disagreements.',
    options: { sets: { type: 'boolean' }, adjudicator: { type: 'string' } },
    run(v, [study, ...usernames]) {
      const dto = setStudyMembers(cliActor(), parseStudyId(study ?? ''), {
        usernames,
        mode: v.sets ? 'fixed_sets' : 'balanced',
        adjudicator: str(v, 'adjudicator') ?? null,
      });
      const who = dto.members.map((m) => (m.setIndex ? `${m.username} (set ${m.setIndex})` : m.username)).join(', ');
      process.stdout.write(
        `Study ${dto.id} reviewers: ${who || '(none)'}${dto.adjudicator ? `; adjudicator ${dto.adjudicator.username}` : ''}\n`,
      );
    },
  },
  {
    name: 'study set',
    usage: 'study set STUDY --ground-truth adjudicated|majority|dawid_skene|mace',
    summary: 'Changes how a pairwise study forms ground truth: agreed-or-adjudicated, or the majority of three or more reviewers.',
    options: { 'ground-truth': { type: 'string' } },
    run(v, [study]) {
      const dto = setGroundTruthRule(cliActor(), parseStudyId(study ?? ''), required(v, 'ground-truth'));
      process.stdout.write(`Study ${dto.id}: ground truth by ${dto.groundTruthRule}.\n`);
    },
  },
  {
    name: 'gold settings',
    usage: 'gold settings STUDY [--rate PCT] [--alert-below PCT|none] [--json]',
    summary:
      "Sets a study's gold rate (0–50 % of each reviewer's queue are gold items, mixed in when a draft study opens) and the\n" +
      '      accuracy on gold below which the study page names a reviewer (none: never). Unset options keep their value.',
    options: { rate: { type: 'string' }, 'alert-below': { type: 'string' }, json: { type: 'boolean' } },
    run(v, [study]) {
      const id = parseStudyId(study ?? '');
      const now = getGoldSettings(cliActor(), id);
      const alert = str(v, 'alert-below');
      const r = setGoldSettings(cliActor(), id, {
        ratePct: str(v, 'rate') ?? now.ratePct,
        alertBelowPct: alert === undefined ? now.alertBelowPct : alert === 'none' ? '' : alert,
      });
      if (v.json) {
        print(r);
        return;
      }
      process.stdout.write(
        `Study ${id}: gold rate ${r.ratePct} %, ${r.alertBelowPct === null ? 'no accuracy threshold' : `notice below ${r.alertBelowPct} % on gold`}.\n`,
      );
    },
  },
  {
    name: 'gold mark',
    usage: 'gold mark STUDY --item ID --labels \'{"overall":"win"}\' [--json]',
    summary:
      'Gives an item (by its id in the imported file) known answers, one label per criterion, dimension or flow decision in\n' +
      "      the study's own label names; a null label unmarks that unit, and an item with none left is no longer gold. Audited.",
    options: { item: { type: 'string' }, labels: { type: 'string' }, json: { type: 'boolean' } },
    run(v, [study]) {
      const id = parseStudyId(study ?? '');
      let labels: unknown;
      try {
        labels = JSON.parse(required(v, 'labels'));
      } catch {
        throw invalid('--labels must be a JSON object of labels, e.g. \'{"overall":"win"}\'.');
      }
      const r = setGoldOfItemNamed(cliActor(), id, { item: required(v, 'item'), labels });
      if (v.json) {
        print(r);
        return;
      }
      const set = Object.entries(r.labels);
      process.stdout.write(
        `Study ${id}, item ${str(v, 'item')}: ${set.length ? `gold (${set.map(([u, l]) => `${u} ${l}`).join(', ')})` : 'not gold'}.\n`,
      );
    },
  },
  {
    name: 'study open',
    usage: 'study open STUDY [--unassigned]',
    summary:
      'Opens a draft study: makes the assignments from its stored seed. --unassigned (with no reviewers chosen) leaves items\n' +
      '      without reviewers, e.g. judge-only items for a hybrid review queue.',
    options: { unassigned: { type: 'boolean' } },
    run(v, [study]) {
      const dto = openStudy(cliActor(), parseStudyId(study ?? ''), { leaveUnassigned: !!v.unassigned });
      process.stdout.write(`Study ${dto.id} is open: ${dto.itemCount} items, ${dto.reviewersPerItem} reviewer(s) each.\n`);
    },
  },
  {
    name: 'study edit',
    usage: 'study edit STUDY [--name NAME] [--guidelines FILE.md]',
    summary: 'Renames a draft or open study and/or gives it new guidelines (a new version; reviewers see it on their next item).',
    options: { name: { type: 'string' }, guidelines: { type: 'string' } },
    run(v, [study]) {
      const guidelinesFile = str(v, 'guidelines');
      const r = editStudy(cliActor(), parseStudyId(study ?? ''), {
        name: str(v, 'name'),
        guidelines: guidelinesFile ? fs.readFileSync(existingFile(guidelinesFile), 'utf8') : undefined,
      });
      process.stdout.write(`Study ${study}: "${r.name}", guidelines version ${r.guidelinesVersion}.\n`);
    },
  },
  {
    name: 'study deadline',
    usage: 'study deadline STUDY YYYY-MM-DD',
    summary: 'Sets or moves the deadline of a draft or open study (the end of that day, UTC); shown to reviewers, never enforced.',
    run(_v, [study, day]) {
      const r = setDeadline(cliActor(), parseStudyId(study ?? ''), { deadline: day ?? '' });
      process.stdout.write(`Study ${study}: deadline ${r.deadline}.\n`);
    },
  },
  {
    name: 'study replace-reviewer',
    usage: 'study replace-reviewer STUDY FROM TO',
    summary: "Hands the pending items of reviewer FROM (who left) to TO in an open study; what FROM submitted stays FROM's.",
    run(_v, [study, from, to]) {
      const r = replaceReviewer(cliActor(), parseStudyId(study ?? ''), { from: from ?? '', to: to ?? '' });
      process.stdout.write(
        `Study ${study}: ${r.moved} pending item(s) moved from ${r.from} to ${r.to}` +
          (r.keptWithEarlierRevisions
            ? `; ${r.keptWithEarlierRevisions} undone item(s) with ${r.from}'s revisions stay with ${r.from}`
            : '') +
          '.\n',
      );
    },
  },
  {
    name: 'study close',
    usage: 'study close STUDY',
    summary: 'Closes an open study: reviewers can no longer submit or undo.',
    run(_v, [study]) {
      const dto = closeStudy(cliActor(), parseStudyId(study ?? ''));
      process.stdout.write(`Study ${dto.id} is closed.\n`);
    },
  },
  {
    name: 'study archive',
    usage: 'study archive STUDY [--undo]',
    summary: 'Archives a closed study (left out of the studies list unless asked for); --undo brings it back.',
    options: { undo: { type: 'boolean' } },
    run(v, [study]) {
      setArchived(cliActor(), parseStudyId(study ?? ''), !v.undo);
      process.stdout.write(`Study ${study} ${v.undo ? 'is back in the studies list' : 'is archived'}.\n`);
    },
  },
  {
    name: 'import items',
    usage: 'import items --study STUDY [--format concord|mathdial|bridge|pandalm|mrbench|mrbench-v1|aitutor-evalkit] FILE',
    summary:
      'Imports items (JSON Lines; Bridge: its folder; PandaLM: testset-v1.json with its annotators; MRBench V3/V1: the JSON file, its gold\n' +
      '      labels as prior annotations by mrbench-gold). A file with any bad line is refused whole.',
    options: { study: { type: 'string' }, format: { type: 'string', default: 'concord' } },
    run(v, [file]) {
      const report = importItems(cliActor(), parseStudyId(required(v, 'study')), existingFile(file), str(v, 'format')!);
      process.stdout.write(
        `Imported ${report.inserted} new item(s); ${report.unchanged} already present and unchanged (${report.records} records).\n`,
      );
      if (report.annotations) {
        process.stdout.write(`Imported ${report.annotations.inserted} prior annotation(s); ${report.annotations.unchanged} unchanged.\n`);
      }
    },
  },
  {
    name: 'import annotations',
    usage: 'import annotations --study STUDY [--format concord|pandalm|mrbench|mrbench-v1] FILE',
    summary:
      'Imports labels made elsewhere ({"item", "annotator", "labels"} lines; mrbench: the gold labels as annotator mrbench-gold);\n' +
      "      unknown annotators become accounts that cannot sign in. Rubric labels must be in the dimension's label set.",
    options: { study: { type: 'string' }, format: { type: 'string', default: 'concord' } },
    run(v, [file]) {
      const r = importAnnotations(cliActor(), parseStudyId(required(v, 'study')), existingFile(file), str(v, 'format')!);
      process.stdout.write(`Imported ${r.inserted} annotation(s); ${r.unchanged} already present and unchanged (${r.records} records).\n`);
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
          Object.entries(r.discardReasons)
            .map(([k, n]) => `  ${k}: ${n}\n`)
            .join('') +
          r.reviewers
            .map(
              (p) =>
                `${p.username}: ${p.submitted}/${p.assigned}, ${(p.activeSeconds / 3600).toFixed(2)} h active, payout ${p.payout.toFixed(2)}\n`,
            )
            .join(''),
      );
    },
  },
  {
    name: 'export flows',
    usage: 'export flows --study STUDY [--what flows|decisions] [--format jsonl|csv] [--include-incomplete]',
    summary:
      'Streams verified flows (discarded left out, truncation applied; flows not every reviewer has submitted yet left out and\n' +
      'counted on stderr, or exported marked complete: false with --include-incomplete) or every decision to stdout.',
    options: {
      study: { type: 'string' },
      what: { type: 'string', default: 'flows' },
      format: { type: 'string', default: 'jsonl' },
      'include-incomplete': { type: 'boolean' },
    },
    async run(v) {
      const what = str(v, 'what')!;
      const includeIncomplete = !!v['include-incomplete'];
      const out = exportFlows(cliActor(), parseStudyId(required(v, 'study')), what, str(v, 'format')!, { includeIncomplete });
      await writeLines(out.lines);
      const n = out.summary.incomplete;
      if (what === 'flows' && n) {
        process.stderr.write(
          includeIncomplete
            ? `${n} flow(s) not reviewed by every reviewer yet; those with reviews are included, marked complete: false.\n`
            : `${n} flow(s) not reviewed by every reviewer yet were left out (--include-incomplete exports them).\n`,
        );
      }
    },
  },
  {
    name: 'export ground-truth',
    usage: 'export ground-truth --study STUDY [--format jsonl|csv]',
    summary:
      'Streams the ground truth of a pairwise or rubric study: per item and criterion (dimension) the final label, its provenance, the\n' +
      "      reviewers' labels; for a rubric study also the group, the tutor and the lenient label.",
    options: { study: { type: 'string' }, format: { type: 'string', default: 'jsonl' } },
    async run(v) {
      const out = exportGroundTruth(cliActor(), parseStudyId(required(v, 'study')), str(v, 'format')!);
      await writeLines(out.lines);
      if (out.summary.incomplete) process.stderr.write(`${out.summary.incomplete} item(s) not complete yet were left out.\n`);
    },
  },
  {
    name: 'backup',
    usage: 'backup FILE',
    summary:
      'Writes a consistent copy of the database while it is in use, and checks it (integrity and row counts); put it back with `restore`.',
    async run(_v, [file]) {
      if (!file) throw invalid('Name the backup file.');
      const b = await backupDatabase(cliActor(), file);
      process.stdout.write(
        `Backed up to ${b.file} (${b.bytes.toLocaleString('en-US')} bytes, integrity ${b.integrity}, ` +
          `${b.counts.annotations.toLocaleString('en-US')} annotations, ${b.counts.judge_labels.toLocaleString('en-US')} judge verdicts).\n`,
      );
    },
  },
  {
    name: 'restore',
    usage: 'restore FILE [--to DB] [--force]',
    summary:
      'Puts a backup in place as the database (CONCORD_DB, or --to), atomically, after checking it; refuses a damaged, foreign or newer-schema file. ' +
      'An existing database is replaced only with --force, and kept as DB.before-restore-TIME. Stop the server first.',
    options: { to: { type: 'string' }, force: { type: 'boolean' } },
    db: false,
    async run(v, [file]) {
      if (!file) throw invalid('Name the backup file to restore.');
      const r = await restoreDatabase(file, str(v, 'to') ?? databasePath(), { force: !!v.force });
      process.stdout.write(
        `Restored ${r.file} into ${r.target} (${r.bytes.toLocaleString('en-US')} bytes, ${r.migrations} migrations, ` +
          `${r.counts.annotations.toLocaleString('en-US')} annotations).\n` +
          (r.keptAs ? `The database it replaced is kept as ${r.keptAs}.\n` : ''),
      );
    },
  },
  {
    name: 'seed',
    usage: 'seed [--if-empty]',
    summary:
      'Loads the demo accounts and studies (the KMP-style examples, and the public datasets found in CONCORD_PUBLIC_DATA) into an\n' +
      '      empty database, or adds to a demo database the demo studies whose data has arrived since. A database that is not\n' +
      '      the demo is refused (--if-empty: left as it is, exit 0).',
    options: { 'if-empty': { type: 'boolean' } },
    async run(v) {
      const result = await seedDemo({
        ifEmpty: !!v['if-empty'],
        log: (m) => process.stdout.write(`${m}\n`),
        warn: (m) => process.stderr.write(`${m}\n`),
      });
      if (result.outcome === 'not-demo')
        process.stdout.write('The database has accounts and is not the demo; the demo seed left it as it is.\n');
      if (result.outcome === 'complete') process.stdout.write('The demo database already has every demo study whose data is here.\n');
      if (result.outcome === 'topped-up')
        process.stdout.write(`Added ${result.made} demo ${result.made === 1 ? 'study' : 'studies'} to the demo database.\n`);
    },
  },
];
