import readline from 'node:readline';
import { Readable } from 'node:stream';
import { invalid } from '@/lib/server/errors';
import type { Command } from './commands';

/*
 * `concord batch`: many commands in one process. Starting the CLI costs a second or more (tsx compiles and loads
 * the whole server library) and most commands take a few milliseconds, so a script that makes a study, imports its
 * items, chooses its people and opens it spends nearly all of its time starting processes. Here each line of stdin
 * is one command, run exactly as `concord ARGS…` would run it (its own database connection, opened and closed, its
 * own exit code), and each answer is one line of stdout, written as soon as the command has ended: a script can
 * send the next command after reading the answer to the last (the end-to-end tests do, e2e/support/cli.ts).
 */

/** One command: its words, as after `concord`, and what it reads on stdin (the password of `user add`). */
type Request = { args: string[]; input?: string };
/** What the command wrote and its exit code, as `concord ARGS…` would have ended. */
type Answer = { code: number; stdout: string; stderr: string };

function parseRequest(line: string): Request {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    throw invalid(`not JSON: ${(e as Error).message}`);
  }
  const request = (Array.isArray(value) ? { args: value } : value) as Partial<Request> | null;
  if (!request || !Array.isArray(request.args) || !request.args.every((a) => typeof a === 'string')) {
    throw invalid('a line is an array of words, or {"args": [words], "input": "text"}');
  }
  if (request.input !== undefined && typeof request.input !== 'string') throw invalid('"input" is a string');
  if (request.args[0] === 'batch') throw invalid('a batch cannot start another batch');
  return { args: request.args, input: request.input };
}

/**
 * Runs `run(args)` with stdout, stderr and stdin of its own: what it writes is captured (console.log too, which
 * writes through process.stdout) and it reads `input` where it would read stdin. One command at a time.
 */
async function captured(run: (args: string[]) => Promise<number>, request: Request): Promise<Answer> {
  const answer: Answer = { code: 1, stdout: '', stderr: '' };
  const { stdout, stderr } = process;
  const writes = { stdout: stdout.write, stderr: stderr.write };
  const stdin = Object.getOwnPropertyDescriptor(process, 'stdin');
  const capture = (key: 'stdout' | 'stderr') =>
    function write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
      answer[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (callback) queueMicrotask(callback);
      return true;
    };
  stdout.write = capture('stdout') as typeof stdout.write;
  stderr.write = capture('stderr') as typeof stderr.write;
  const input = Readable.from(request.input === undefined ? [] : [Buffer.from(request.input)]);
  Object.defineProperty(process, 'stdin', { configurable: true, enumerable: stdin?.enumerable ?? false, get: () => input });
  try {
    answer.code = await run(request.args);
  } finally {
    stdout.write = writes.stdout;
    stderr.write = writes.stderr;
    if (stdin) Object.defineProperty(process, 'stdin', stdin);
  }
  return answer;
}

/** `run` is the command line's own dispatch (main.ts), so a command in a batch is found and parsed as alone. */
export function batchCommand(run: (args: string[]) => Promise<number>): Command {
  return {
    name: 'batch',
    usage: 'batch   (one command per line on stdin: ["study","open","3"] or {"args":[…],"input":"…"})',
    summary:
      'Runs many commands in one process, in order, each as it would run alone: one answer per line on stdout,\n' +
      '      {"code":0,"stdout":"…","stderr":"…"}, written when the command ends. Ends at the end of stdin.',
    db: false,
    async run() {
      const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
      const write = process.stdout.write.bind(process.stdout);
      for await (const line of lines) {
        if (!line.trim()) continue;
        let answer: Answer;
        try {
          answer = await captured(run, parseRequest(line));
        } catch (e) {
          answer = { code: 2, stdout: '', stderr: `concord batch: ${(e as Error).message}\n` };
        }
        write(`${JSON.stringify(answer)}\n`);
      }
    },
  };
}
