// `svc-cli skill list|install`: workflow skills for coding agents (Claude Code, Codex, Cursor).
import { resolve } from 'node:path';
import { defineCommand, defineGroup, jsonOption } from '../../lib/command.ts';
import { engineUrl } from '../../lib/credentials.ts';
import { print, printJson, printTable } from '../../lib/output.ts';
import { AGENTS, install, listSkills, status, targetPath, type Agent } from '../../lib/skills.ts';

const dirOption = { type: 'string', requiresArg: true, describe: 'project directory (default: the current directory)' } as const;

const skillList = defineCommand({
  command: 'list',
  describe: 'List the skills and where each agent would read them',
  builder: (y) => jsonOption(y.option('dir', dirOption)).example('$0 skill list', 'skills and their install state here'),
  handler: async (argv) => {
    const dir = resolve(argv.dir ?? '.');
    const data = { engineUrl: engineUrl() };
    const skills = await Promise.all(
      listSkills().map(async (s) => ({
        name: s.name,
        description: s.description,
        agents: await Promise.all(AGENTS.map(async (agent) => ({ agent, path: targetPath(agent, s.name), status: await status(agent, s, dir, data) }))),
      })),
    );
    if (argv.json) return printJson({ skills });
    for (const s of skills) {
      print(`${s.name}: ${s.description}`);
      print();
      printTable(['AGENT', 'PATH', 'STATUS'], s.agents.map((a) => [a.agent, a.path, a.status]), '');
    }
  },
});

const skillInstall = defineCommand({
  command: 'install',
  describe: 'Install the skills for a coding agent into the project (idempotent)',
  builder: (y) =>
    y
      .option('for', { choices: AGENTS, demandOption: true, requiresArg: true, describe: 'the coding agent' })
      .option('dir', dirOption)
      .example('$0 skill install --for claude-code', 'write .claude/skills/svc-engine/SKILL.md')
      .example('$0 skill install --for codex', 'add or update the svc-engine section of AGENTS.md')
      .example('$0 skill install --for cursor --dir ~/src/app', 'write .cursor/rules/svc-engine.mdc in another project'),
  handler: async (argv) => {
    const dir = resolve(argv.dir ?? '.');
    for (const r of await install(argv.for as Agent, dir, { engineUrl: engineUrl() })) {
      const what = r.outcome === 'unchanged' ? 'unchanged (already up to date)' : r.outcome;
      print(`${r.skill} for ${argv.for}: ${r.path} ${what}`);
    }
  },
});

export const skill = defineGroup('skill', 'Workflow skills for coding agents', [skillList, skillInstall], [
  ['$0 skill install --for claude-code', 'teach Claude Code the svc-engine workflow'],
]);
