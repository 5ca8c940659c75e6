import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/temp-root.ts', 'test/support/compiled-commands.ts'],
    // Generous: a run with every core busy (CI neighbours, helpers) is several times slower; a
    // timeout is a hang detector here, never a speed assertion (speed is measured in bench/).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: suites start their own servers, keep parallelism modest.
    maxWorkers: 2,
  },
});
