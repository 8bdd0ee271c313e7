import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    // Bounds for a hang, not for speed (tests judge what happened, never how fast): on a machine shared by
    // several suites (load 25-30 on two cores) starting a built process alone can take 15 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most test time is waiting (bots starting, child processes, the fakes' held answers), not CPU: the whole
    // suite uses ≈ a third of two cores in one worker, which is vitest's default on two cores (cores - 1).
    // Two workers per core keep the cores busy; each file still runs alone in its own fork.
    maxWorkers: Math.max(2, availableParallelism() * 2),
    reporters: ['default'],
  },
});
