#!/usr/bin/env node
// Runs the TypeScript CLI with tsx. The react-server condition lets modules marked 'server-only' load outside Next.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx');
const child = spawn(
  process.execPath,
  ['--conditions=react-server', '--import', tsx, path.join(here, 'main.ts'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    cwd: process.cwd(),
    env: {
      ...process.env,
      CONCORD_MIGRATIONS: process.env.CONCORD_MIGRATIONS ?? path.join(here, '..', '..', 'db', 'migrations'),
      // The child stops an import if this process is killed on its own (main.ts).
      CONCORD_CLI_WRAPPER: String(process.pid),
    },
  },
);
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
