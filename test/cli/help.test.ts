// Every svc-cli command, found by walking `--help` from the top, documents itself with at least
// one example and exits 0.
import { describe, expect, it } from 'vitest';
import { CLI_SOURCE, cliUser, run } from '../fixtures/cli.ts';

/** Subcommand paths listed under "Commands:" in a help text. */
function subcommands(help: string): string[][] {
  const section = help.split(/^Commands:\n/m)[1]?.split(/\n\n/)[0] ?? '';
  return section
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((words) => words[0] === 'svc-cli')
    .map((words) => words.slice(1).filter((w, i, all) => all.slice(0, i + 1).every((x) => /^[a-z][a-z-]*$/.test(x))));
}

describe('svc-cli --help', () => {
  it('has examples on every command', { timeout: 120_000 }, async () => {
    const user = cliUser('http://127.0.0.1:8700');
    try {
      const seen: string[] = [];
      let level: string[][] = [[]];
      while (level.length) {
        const helps = await Promise.all(level.map((path) => user.cli([...path, '--help'])));
        const next: string[][] = [];
        level.forEach((path, i) => {
          const r = helps[i]!;
          expect(r.code, path.join(' ')).toBe(0);
          expect(r.stdout, `svc-cli ${path.join(' ')} --help`).toMatch(/^Examples:\n {2}.*svc-cli /m);
          seen.push(path.join(' '));
          next.push(...subcommands(r.stdout).filter((p) => p.length > path.length));
        });
        level = next;
      }
      // the walk reached the leaves of every group
      for (const leaf of ['login', 'workspace service import', 'secret set', 'sdk invoke', 'mcp token create', 'connection create', 'skill install']) {
        expect(seen).toContain(leaf);
      }
      expect(seen.length).toBeGreaterThanOrEqual(35);
    } finally {
      user.cleanup();
    }
  });
});

describe('svc-cli from its TypeScript sources (`npm run svc-cli`)', () => {
  // The other CLI tests run the bundle install.sh ships; a checkout runs the sources directly.
  it('runs and answers as the bundle does', async () => {
    const user = cliUser('http://127.0.0.1:8700');
    try {
      const [source, bundle] = await Promise.all([
        run(process.execPath, [CLI_SOURCE, 'secret', '--help'], { env: { PATH: process.env.PATH, HOME: user.home, NO_COLOR: '1' } }),
        user.cli(['secret', '--help']),
      ]);
      expect(source.code).toBe(0);
      expect(source.stderr).toBe('');
      expect(source.stdout).toBe(bundle.stdout);
      expect(source.stdout).toMatch(/^Examples:/m);
    } finally {
      user.cleanup();
    }
  });
});
