// Runs once before the test files: bundles svc-cli as install.sh ships it (cli/build.ts) into a
// directory of this run's own, so every CLI test spawns the shipped artifact, and saves each spawn
// the ~150 ms Node spends type-stripping and loading the TypeScript sources.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildCli } from '../cli/build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The svc-cli bundle this run's CLI tests spawn. */
    svcCliBundle: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-bundle-'));
  const bundle = join(dir, 'svc-cli.mjs');
  await buildCli(bundle);
  project.provide('svcCliBundle', bundle);
  return () => rmSync(dir, { recursive: true, force: true });
}
