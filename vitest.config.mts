import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The chaos suite has its own config (npm run test:chaos): minutes, not seconds.
    exclude: ['test/e2e/**', 'test/chaos/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['test/setup-require-ts.ts'],
    // fails the run when a test left files in the repository's specs/
    globalSetup: ['test/global-setup.ts'],
  },
});
