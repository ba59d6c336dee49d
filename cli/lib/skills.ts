// Agent skills: templates/skills/*.hbs rendered with Handlebars and written where each coding
// agent looks for them. Rendering is deterministic, so installing twice changes nothing.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { CliError } from './errors.ts';
import { embeddedTemplates } from './embedded-templates.ts';
import { makeDir, writeIfChanged, type WriteOutcome } from './files.ts';

export const AGENTS = ['claude-code', 'codex', 'cursor'] as const;
export type Agent = (typeof AGENTS)[number];

export interface Skill {
  name: string;
  description: string;
  template: string;
}

function readTemplate(name: string): string {
  const embedded = embeddedTemplates?.[name];
  if (embedded !== undefined) return embedded;
  try {
    return readFileSync(new URL(`../../templates/skills/${name}`, import.meta.url), 'utf8');
  } catch {
    throw new CliError(`the skill template ${name} is missing from this svc-cli installation`, 'reinstall svc-cli');
  }
}

export const listSkills = (): Skill[] => JSON.parse(readTemplate('skills.json')) as Skill[];

/** Where each agent reads a skill, relative to the project directory. */
export function targetPath(agent: Agent, skill: string): string {
  switch (agent) {
    case 'claude-code':
      return join('.claude', 'skills', skill, 'SKILL.md');
    case 'codex':
      return 'AGENTS.md';
    case 'cursor':
      return join('.cursor', 'rules', `${skill}.mdc`);
  }
}

export async function render(agent: Agent, skill: Skill, data: { engineUrl: string }): Promise<string> {
  const { default: Handlebars } = await import('handlebars'); // loaded only for skills: keeps startup fast
  const hb = Handlebars.create();
  // A JSON string is a valid YAML double-quoted scalar: safe for front matter whatever the text.
  hb.registerHelper('yaml', (value: unknown) => JSON.stringify(String(value)));
  hb.registerPartial('body', readTemplate(skill.template));
  const template = hb.compile(readTemplate(`agents/${agent}.hbs`), { noEscape: true, strict: true });
  return template({ ...data, name: skill.name, description: skill.description }).replace(/\n*$/, '\n');
}

const beginMarker = (skill: string) => `<!-- BEGIN svc-cli skill ${skill} (managed by \`svc-cli skill install --for codex\`; edits inside are replaced) -->`;
const endMarker = (skill: string) => `<!-- END svc-cli skill ${skill} -->`;

/** AGENTS.md with the skill's section inserted or replaced between its markers; the rest is kept byte for byte. */
export function withSection(existing: string, skill: string, body: string): string {
  const block = `${beginMarker(skill)}\n${body}${endMarker(skill)}`;
  const beginPrefix = `<!-- BEGIN svc-cli skill ${skill} `;
  const start = existing.indexOf(beginPrefix);
  const endAt = existing.indexOf(endMarker(skill));
  if (start === -1 && endAt === -1) {
    if (!existing) return block + '\n';
    return existing.replace(/\n*$/, '\n\n') + block + '\n';
  }
  if (start === -1 || endAt === -1 || endAt < start) {
    throw new CliError(`AGENTS.md has a broken svc-cli section for ${skill} (one marker without the other)`, 'fix or remove the svc-cli markers in AGENTS.md and run the install again');
  }
  return existing.slice(0, start) + block + existing.slice(endAt + endMarker(skill).length);
}

export interface InstallResult {
  skill: string;
  path: string;
  outcome: WriteOutcome;
}

/** The content a target file should have for this skill (for codex, the whole AGENTS.md). */
async function desired(agent: Agent, skill: Skill, dir: string, data: { engineUrl: string }): Promise<{ file: string; text: string }> {
  const file = join(dir, targetPath(agent, skill.name));
  const rendered = await render(agent, skill, data);
  if (agent !== 'codex') return { file, text: rendered };
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return { file, text: withSection(existing, skill.name, rendered) };
}

export async function install(agent: Agent, dir: string, data: { engineUrl: string }): Promise<InstallResult[]> {
  const results: InstallResult[] = [];
  for (const skill of listSkills()) {
    const { file, text } = await desired(agent, skill, dir, data);
    makeDir(dirname(file));
    results.push({ skill: skill.name, path: relative(dir, file) || file, outcome: writeIfChanged(file, text) });
  }
  return results;
}

export type SkillStatus = 'installed' | 'outdated' | 'not installed';

export async function status(agent: Agent, skill: Skill, dir: string, data: { engineUrl: string }): Promise<SkillStatus> {
  const file = join(dir, targetPath(agent, skill.name));
  if (!existsSync(file)) return 'not installed';
  const current = readFileSync(file, 'utf8');
  if (agent === 'codex' && !current.includes(endMarker(skill.name))) return 'not installed';
  return (await desired(agent, skill, dir, data)).text === current ? 'installed' : 'outdated';
}
