// `svc-cli skill list|install`: templates rendered for Claude Code, Codex and Cursor; installing
// twice is byte-identical; AGENTS.md keeps everything outside its svc-cli section.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';

const ENGINE = 'http://127.0.0.1:8700';
let user: CliUser;
let dir: string;

beforeAll(() => {
  user = cliUser(ENGINE);
  dir = mkdtempSync(join(tmpdir(), 'svc-skills-'));
});
afterAll(() => {
  user?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const install = (agent: string, env: Record<string, string> = {}) => user.cli(['skill', 'install', '--for', agent, '--dir', dir], { env });
const read = (path: string) => readFileSync(join(dir, path), 'utf8');

describe('svc-cli skills', () => {
  it('installs the Claude Code skill with front matter, idempotently', async () => {
    const first = await install('claude-code');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('svc-engine for claude-code: .claude/skills/svc-engine/SKILL.md created\n');
    const content = read('.claude/skills/svc-engine/SKILL.md');
    expect(content).toMatch(/^---\nname: "svc-engine"\ndescription: "Call third-party APIs .+"\n---\n\n# svc-engine/);
    const frontMatter = parseYaml(content.split('---\n')[1]!);
    expect(frontMatter).toEqual({ name: 'svc-engine', description: expect.stringContaining('search_docs and execute') });
    expect(content).toContain('svc-cli secret set <service> --value-stdin');
    expect(content).toContain(`${ENGINE}/v1/apps/$VERSION_ID/executions`);
    expect(content).toContain('### search_docs');
    expect(content).toContain('### execute');
    expect(content).not.toContain('{{');

    const second = await install('claude-code');
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('svc-engine for claude-code: .claude/skills/svc-engine/SKILL.md unchanged (already up to date)\n');
    expect(read('.claude/skills/svc-engine/SKILL.md')).toBe(content);
  });

  it('installs the Cursor rule, idempotently', async () => {
    expect((await install('cursor')).stdout).toContain('.cursor/rules/svc-engine.mdc created');
    const content = read('.cursor/rules/svc-engine.mdc');
    expect(content).toMatch(/^---\ndescription: "Call third-party APIs .+"\nglobs:\nalwaysApply: false\n---\n\n# svc-engine/);
    expect(parseYaml(content.split('---\n')[1]!)).toMatchObject({ description: expect.stringContaining('svc-cli'), alwaysApply: false });
    expect((await install('cursor')).stdout).toContain('.cursor/rules/svc-engine.mdc unchanged');
    expect(read('.cursor/rules/svc-engine.mdc')).toBe(content);
  });

  it('adds a delimited section to AGENTS.md and keeps the rest of the file', async () => {
    const before = '# Project rules\n\nUse pnpm.\n';
    const after = '\n## Later section\n\nKeep me.\n';
    writeFileSync(join(dir, 'AGENTS.md'), before);
    const first = await install('codex');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('svc-engine for codex: AGENTS.md updated\n');
    let content = read('AGENTS.md');
    expect(content.startsWith(before + '\n<!-- BEGIN svc-cli skill svc-engine ')).toBe(true);
    expect(content.trimEnd().endsWith('<!-- END svc-cli skill svc-engine -->')).toBe(true);
    expect(content).toContain('## Skill: svc-engine');

    // content after the section survives re-installs, and the section is replaced, not repeated
    writeFileSync(join(dir, 'AGENTS.md'), content + after);
    const again = await install('codex');
    expect(again.stdout).toBe('svc-engine for codex: AGENTS.md unchanged (already up to date)\n');
    expect(read('AGENTS.md')).toBe(content + after);

    const moved = await install('codex', { SVC_ENGINE_URL: 'https://engine.example.com' });
    expect(moved.stdout).toBe('svc-engine for codex: AGENTS.md updated\n');
    content = read('AGENTS.md');
    expect(content.startsWith(before)).toBe(true);
    expect(content.endsWith(after)).toBe(true);
    expect(content).toContain('https://engine.example.com/mcp/<version_id>');
    expect(content).not.toContain(ENGINE);
    expect(content.match(/<!-- BEGIN svc-cli skill svc-engine /g)).toHaveLength(1);
    expect(content.match(/<!-- END svc-cli skill svc-engine -->/g)).toHaveLength(1);
  });

  it('creates AGENTS.md when there is none', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'svc-skills-'));
    try {
      const r = await user.cli(['skill', 'install', '--for', 'codex'], { cwd: fresh });
      expect(r.stdout).toBe('svc-engine for codex: AGENTS.md created\n');
      expect(readFileSync(join(fresh, 'AGENTS.md'), 'utf8')).toMatch(/^<!-- BEGIN svc-cli skill svc-engine [^\n]*-->\n## Skill: svc-engine\n/);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('refuses an AGENTS.md whose section lost a marker', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'svc-skills-'));
    try {
      writeFileSync(join(broken, 'AGENTS.md'), '<!-- BEGIN svc-cli skill svc-engine (x) -->\nhalf\n');
      const r = await user.cli(['skill', 'install', '--for', 'codex', '--dir', broken]);
      expect(r.code).toBe(1);
      expect(oneErrorLine(r.stderr)).toContain('AGENTS.md has a broken svc-cli section');
      expect(readFileSync(join(broken, 'AGENTS.md'), 'utf8')).toBe('<!-- BEGIN svc-cli skill svc-engine (x) -->\nhalf\n');
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it('lists skills with their install state', async () => {
    const r = await user.cli(['skill', 'list', '--dir', dir, '--json'], { env: { SVC_ENGINE_URL: 'https://engine.example.com' } });
    expect(r.code).toBe(0);
    const [skill] = JSON.parse(r.stdout).skills;
    expect(skill.name).toBe('svc-engine');
    expect(skill.agents).toEqual([
      // rendered for another Engine URL than the one installed
      { agent: 'claude-code', path: '.claude/skills/svc-engine/SKILL.md', status: 'outdated' },
      { agent: 'codex', path: 'AGENTS.md', status: 'installed' },
      { agent: 'cursor', path: '.cursor/rules/svc-engine.mdc', status: 'outdated' },
    ]);
    const text = await user.cli(['skill', 'list', '--dir', dir]);
    expect(text.stdout).toMatch(/claude-code\s+\.claude\/skills\/svc-engine\/SKILL\.md\s+installed/);
  });
});
