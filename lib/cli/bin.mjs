#!/usr/bin/env node
// Runs the CLI, bundled from its TypeScript sources (lib/bundle/process-bundle.mjs), in a child process. The
// react-server condition lets modules marked 'server-only' load outside Next.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledProcess } from '../bundle/process-bundle.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let bundle;
try {
  bundle = bundledProcess(path.join(here, '..', '..'), 'cli');
} catch (e) {
  process.stderr.write(`concord: the command line could not be built from its sources:\n${e.message}\n`);
  process.exit(1);
}
const child = spawn(process.execPath, ['--conditions=react-server', bundle, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: process.cwd(),
  env: {
    ...process.env,
    CONCORD_MIGRATIONS: process.env.CONCORD_MIGRATIONS ?? path.join(here, '..', '..', 'db', 'migrations'),
    // The child stops an import if this process is killed on its own (main.ts).
    CONCORD_CLI_WRAPPER: String(process.pid),
  },
});
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
