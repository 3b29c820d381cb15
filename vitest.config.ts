import { defineConfig } from 'vitest/config';
import path from 'node:path';

/*
 * Three lanes by cost, one after the other. "fast": pure and service tests; every service test file makes its own
 * SQLite file (test/db.ts), so files run in parallel. "heavy": files that read whole public datasets or start
 * processes (the CLI, import and report children, concurrent writers); two at a time, after the fast lane, with
 * longer limits: a file that waits on a child process leaves a core idle that the other file uses. "memory": the
 * files that measure their own peak RSS, last and one at a time, with nothing beside them.
 * `npm run test:fast` runs the first lane, `npm run test:unit` all three.
 */

/** Files that measure their own peak RSS: nothing may run beside them. */
const MEMORY = ['lib/io/hostile.test.ts', 'lib/server/imports/hostile-import.test.ts'];

/** Files that read whole public datasets (MRBench, PandaLM, MathDial, Bridge, AITutor-EvalKit) from CONCORD_PUBLIC_DATA. */
const PUBLIC_DATA = [
  'lib/io/adapters/aitutor-evalkit.test.ts',
  'lib/io/adapters/bridge.test.ts',
  'lib/io/adapters/mathdial.test.ts',
  'lib/io/adapters/mrbench.test.ts',
  'lib/io/adapters/pandalm.test.ts',
  'lib/stats/crowd-pandalm.test.ts',
  'lib/stats/rubric-mrbench.test.ts',
  'lib/server/analytics/acceptance-real-data.test.ts',
  'lib/server/analytics/annotators-mrbench.test.ts',
  'lib/server/analytics/certify-pandalm.test.ts',
  'lib/server/analytics/leaderboard-demo.test.ts',
  'lib/server/analytics/pandalm.test.ts',
  'lib/server/analytics/bias-demo.test.ts',
  'lib/server/analytics/bias-leniency.test.ts',
  'lib/server/analytics/rubric-corrected-mrbench.test.ts',
  'lib/server/analytics/rubric-leaderboard-report.test.ts',
  'lib/server/demo/rubric-demo.test.ts',
  'lib/server/ground-truth/model-gold.test.ts',
  'lib/server/ground-truth/rubric-ground-truth.test.ts',
  'lib/server/imports/rubric-imports.test.ts',
  'lib/server/review/pairwise.test.ts',
  'bench/fewest-labels.test.ts',
];

/** Files that start processes: the CLI, import and report children, concurrent writers. */
const PROCESSES = [
  'lib/bundle/process-bundle.test.ts',
  'lib/cli/*.test.ts',
  'lib/server/analytics/report-process.test.ts',
  'lib/server/analytics/rubric-certify.test.ts',
  'lib/server/demo/seed.test.ts',
  'lib/server/imports/import-process.test.ts',
  'lib/server/imports/import-staging-server.test.ts',
  'lib/server/imports/import-staging.test.ts',
  'lib/server/imports/judge-import.test.ts',
  'lib/server/judges/endpoints.test.ts',
  'lib/server/judges/runner-safety.test.ts',
  'lib/server/review/concurrency.test.ts',
  'lib/server/studies/exports.test.ts',
];

const HEAVY = [...PUBLIC_DATA, ...PROCESSES];

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // `server-only` throws outside the react-server condition; service tests run lib/server directly.
      'server-only': path.resolve(import.meta.dirname, 'test/server-only-stub.ts'),
    },
  },
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          // The files one worker runs share the modules it has loaded instead of loading them again for each file:
          // loading was most of this lane's time (124 s → 48 s; decision 0052). They stay apart because each makes
          // its own database (test/db.ts; closeDb at its end), env() parses the environment again when a variable
          // changed (lib/env.ts) and the report process follows the database (report-worker.ts). A file that turns
          // on a setting of the whole process turns it off at its end (import-staging-server.test.ts).
          isolate: false,
          include: ['lib/**/*.test.ts', 'db/**/*.test.ts', 'components/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...HEAVY, ...MEMORY],
          // Both cores: Vitest's default leaves one free, which on two cores is no parallelism at all.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'heavy',
          isolate: false, // as the fast lane
          include: HEAVY,
          maxWorkers: 2,
          // A whole dataset seeded in a beforeAll (all of MRBench) or a process started per command takes more than
          // the fast lane's limits on a busy two-core machine.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'memory',
          include: MEMORY,
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
