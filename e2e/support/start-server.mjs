// Starts the production build on a new temporary database seeded with the demo data, for the end-to-end tests.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const port = process.argv[2] ?? '3199';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-'));
const env = { ...process.env, CONCORD_DB: path.join(dir, 'concord.db'), AUTH_SECRET: 'e2e-secret-not-for-production-use', NODE_ENV: 'production' };

const seed = spawnSync(process.execPath, ['lib/cli/bin.mjs', 'seed'], { env, stdio: 'inherit' });
if (seed.status !== 0) process.exit(seed.status ?? 1);

const next = path.join('node_modules', 'next', 'dist', 'bin', 'next');
const server = spawn(process.execPath, [next, 'start', '-p', port, '-H', '127.0.0.1'], { env, stdio: 'inherit' });
const stop = () => {
  server.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
