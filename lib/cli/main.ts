import { parseArgs } from 'node:util';
import { closeDb } from '@/db/client';
import { DomainError } from '@/lib/server/errors';
import { checkBeforeEachCommit } from '@/lib/server/imports/import-staging';
import { ImportRejected } from '@/lib/server/imports/imports';
import { openConcord } from '@/lib/server/system/startup';
import { ANNOTATOR_COMMANDS } from './annotator-commands';
import { batchCommand } from './batch-command';
import { COMMANDS as BASE_COMMANDS, type Command } from './commands';
import { JUDGE_COMMANDS } from './judge-commands';
import { JUDGE_EXAMPLE_COMMANDS } from './judge-example-commands';
import { DATA_COMMANDS } from './data-commands';
import { JUDGE_RUN_COMMANDS } from './judge-run-commands';
import { QUEUE_COMMANDS } from './queue-commands';
import { REPORT_COMMANDS } from './report-commands';
import { TOKEN_COMMANDS } from './token-commands';

const COMMANDS: Command[] = [
  ...BASE_COMMANDS,
  ...TOKEN_COMMANDS,
  ...REPORT_COMMANDS,
  ...QUEUE_COMMANDS,
  ...ANNOTATOR_COMMANDS,
  ...JUDGE_COMMANDS,
  ...JUDGE_RUN_COMMANDS,
  ...JUDGE_EXAMPLE_COMMANDS,
  ...DATA_COMMANDS,
  // Last: its commands are this table's (main, below).
  batchCommand((argv) => main(argv)),
];

// bin.mjs runs this file in a child process. If the wrapper alone is killed, whoever ran the command saw it end
// without an answer: an import still running here stops before its next commit and undoes what it wrote, as an
// import child of the server does when the server is gone. A dead parent changes this process's parent pid at once.
const wrapperPid = Number(process.env.CONCORD_CLI_WRAPPER);
if (wrapperPid && wrapperPid === process.ppid) {
  checkBeforeEachCommit(() => {
    if (process.ppid !== wrapperPid) throw new Error(`the command's process (pid ${wrapperPid}) is gone; the import is undone`);
  });
}

const USAGE = `Usage: npx concord <command> [options]

${COMMANDS.map((c) => `  ${c.usage}\n      ${c.summary}`).join('\n')}

Every command but \`data fetch\` works on the database at CONCORD_DB (default ./data/concord.db).
Errors go to stderr with a non-zero exit code.`;

function findCommand(argv: string[]): { command: Command; rest: string[] } | null {
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) return { command, rest: argv.slice(words.length) };
  }
  return null;
}

async function main(argv: string[]): Promise<number> {
  if (!argv.length || argv[0] === '--help' || argv[0] === 'help' || argv[0] === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length ? 0 : 2;
  }
  const found = findCommand(argv);
  if (!found) {
    process.stderr.write(`concord: unknown command "${argv.slice(0, 2).join(' ')}"\n\n${USAGE}\n`);
    return 2;
  }
  const { command, rest } = found;
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (e) {
    process.stderr.write(`concord ${command.name}: ${(e as Error).message}\nUsage: ${command.usage}\n`);
    return 2;
  }
  try {
    // The server's start-up, without the uploads folder: an import whose process was killed is undone first.
    if (command.db !== false) openConcord();
    const code = await command.run(parsed.values as Record<string, string | boolean | undefined>, parsed.positionals);
    return typeof code === 'number' ? code : 0;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EPIPE') return 0;
    if (e instanceof ImportRejected) {
      process.stderr.write(`concord ${command.name}: ${e.message}\n`);
      for (const err of e.errors) {
        // Adapter formats (MRBench, AITutor-EvalKit) number records and already say where: "record 12 (item …), path: …".
        const where = err.message.startsWith(`record ${err.line}`) ? '' : `line ${err.line}${err.path ? `, ${err.path}` : ''}: `;
        process.stderr.write(`  ${where}${err.message}\n`);
      }
      if (e.errorCount > e.errors.length) process.stderr.write(`  … and ${e.errorCount - e.errors.length} more\n`);
      return 1;
    }
    if (e instanceof DomainError) {
      process.stderr.write(`concord ${command.name}: ${e.message}\n`);
      return 1;
    }
    process.stderr.write(`concord ${command.name}: unexpected error: ${(e as Error).stack ?? e}\n`);
    return 1;
  } finally {
    closeDb();
  }
}

// A reader that stops early (`| head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

// Exit once stdout has taken everything written to it: when it is a pipe whose reader is slow, a bare exit can
// drop the tail of a long export still buffered in the process.
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  process.stdout.write('', () => process.exit(code));
});
