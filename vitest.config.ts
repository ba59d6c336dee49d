import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Four files at a time on two cores (vitest's default is one fewer than the cores): most files
    // wait on Engines, providers and browsers they spawn, so the suite fits CI's 15 minutes (three at
    // a time: 820 s of tests; four: 712 s, the two cores 75 % busy), and files that share a moment
    // under load find races a serial run hides.
    maxWorkers: 4,
    // A worker keeps its loaded modules from one file to the next: loading the Engine's modules
    // afresh for each of 230 files took 441 s of the workers' time (46 s shared), 870 s → 608 s in all.
    // Every file still starts its own Engines, stores and providers.
    isolate: false,
    reporters: ['default'],
  },
});
