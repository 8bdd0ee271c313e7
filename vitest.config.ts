import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most test time is waiting (bots starting, child processes, the fakes' held answers), not CPU: the whole
    // suite uses ≈ a third of two cores in one worker, which is vitest's default on two cores (cores - 1).
    // Two workers per core keep the cores busy; each file still runs alone in its own fork.
    maxWorkers: Math.max(2, availableParallelism() * 2),
    reporters: ['default'],
  },
});
