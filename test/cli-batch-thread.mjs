// The thread behind test/cli-batch.ts: it keeps one `concord batch` process (lib/cli/batch-command.ts) and passes
// it one command at a time. The test's own thread waits on `signal` (Atomics.wait), so a test can call the CLI
// synchronously, as it did when each command was a process of its own, while the CLI starts only once per worker.
import { spawn } from 'node:child_process';
import { parentPort, workerData } from 'node:worker_threads';

const { env, port } = workerData;
const signal = new Int32Array(workerData.signal);
const child = spawn(process.execPath, ['lib/cli/bin.mjs', 'batch'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
let waiting = false;
let gone = null;

function answer(message) {
  waiting = false;
  port.postMessage(message);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

let buffered = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  buffered += chunk;
  for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    answer(JSON.parse(line));
  }
});
child.on('exit', (code, sig) => {
  gone = `concord batch ended (${sig ?? `exit code ${code}`})`;
  if (waiting) answer({ error: gone });
});
child.on('error', (e) => {
  gone = `concord batch could not start: ${e.message}`;
  if (waiting) answer({ error: gone });
});

parentPort.on('message', (request) => {
  if (gone) return answer({ error: gone });
  waiting = true;
  child.stdin.write(`${JSON.stringify(request)}\n`);
});
