import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3199);
/**
 * Debian's headless shell (package chromium-headless-shell) when it is there: the same Blink and V8 as the full
 * browser without its windowing layers. The browser is most of the suite's CPU, and on this machine the shell took
 * a third less CPU than the full browser for the same specs. The full browser otherwise; CHROMIUM_PATH overrides both.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file));
// One temporary database for the run. Set here, in the runner, so that test workers (which inherit the
// environment) can prepare data with the CLI on the same file the server uses.
process.env.CONCORD_E2E_DB ??= path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'concord-e2e-')), 'concord.db');

export default defineConfig({
  testDir: './e2e',
  testMatch: /.*\.spec\.ts/,
  // Spec files run side by side on two workers, each file's tests in order on one worker. Every spec makes the
  // studies and people it changes (through the CLI, on the server's database), so no spec depends on another's
  // order; a spec that kills or restarts a server starts its own, on a port of its own. E2E_WORKERS overrides.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // Two workers share the two cores, and the server serves both: a test may take up to twice as long as alone.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json', { outputFile: '.test-reports/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // No trace by default: recording one for every test (to keep those that fail) took 45 % of the browser tests'
    // time on this machine. A failed test keeps its screenshot and the page's accessibility snapshot
    // (test-results/); `npx playwright test FILE --trace retain-on-failure` records the whole trace when it is needed.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    // A fresh temporary database, migrated and seeded with the demo, behind the production build.
    command: `node e2e/support/start-server.mjs ${PORT}`,
    // A small API rate limit, so that e2e/api.spec.ts can reach it in a few dozen requests (each spec's own tokens).
    env: { CONCORD_DB: process.env.CONCORD_E2E_DB, CONCORD_API_BURST: '40', CONCORD_API_RATE: '5' },
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // SIGTERM, not Playwright's default SIGKILL: start-server.mjs stops the server and removes the run's database
    // folder (tens of MB, every spec's data) when the server has exited.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
