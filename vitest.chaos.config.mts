import { defineConfig } from 'vitest/config';

// The chaos suite: contention, crashes, fuzzing and faults against the real
// runner, server and ledger. Each test bounds its own duration; the whole
// suite stays within a few minutes so .ci/run can afford it.
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.chaos.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // fails the run when a test left files in the repository's specs/
    globalSetup: ['test/global-setup.ts'],
    fileParallelism: false,
    passWithNoTests: true,
  },
});
