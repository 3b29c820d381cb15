// Starts the production build on a new database (CONCORD_DB, set by the Playwright config) seeded with the
// demo data, for the end-to-end tests.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const port = process.argv[2] ?? '3199';
const db = process.env.CONCORD_DB;
if (!db) {
  console.error('start-server: CONCORD_DB is not set');
  process.exit(1);
}
const env = { ...process.env, AUTH_SECRET: 'e2e-secret-not-for-production-use', NODE_ENV: 'production' };
const cleanup = () => fs.rmSync(path.dirname(db), { recursive: true, force: true });

const seed = spawnSync(process.execPath, ['lib/cli/bin.mjs', 'seed'], { env, stdio: 'inherit' });
if (seed.status !== 0) process.exit(seed.status ?? 1);

const next = path.join('node_modules', 'next', 'dist', 'bin', 'next');
// Test clients keep idle pooled connections around for longer than Node's default 5 s keep-alive; a socket the
// server closes just as a client reuses it shows up as a reset. Keep them open as a proxy in front would.
const server = spawn(process.execPath, [next, 'start', '-p', port, '-H', '127.0.0.1', '--keepAliveTimeout', '65000'], {
  env,
  stdio: 'inherit',
});
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  cleanup();
  process.exit(code ?? 0);
});
