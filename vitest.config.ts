import { defineConfig } from 'vitest/config';
import path from 'node:path';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // `server-only` throws outside the react-server condition; service tests run lib/server directly.
      'server-only': path.resolve(import.meta.dirname, 'test/server-only-stub.ts'),
    },
  },
  test: {
    include: ['lib/**/*.test.ts', 'db/**/*.test.ts', 'components/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // One test file at a time: the importer's memory tests measure their own process's peak RSS, which a second
    // file running beside them on a two-core machine inflates through delayed garbage collection.
    fileParallelism: false,
    testTimeout: 30_000,
  },
});
