// `init`, `plan` and `apply` for SDK apps and MCP servers alike: the same definition file workflow, with
// the endpoints and wording of each kind (see lib/definition.ts).
import type { Argv } from 'yargs';
import { defineCommand, jsonOption, repeatable } from '../../lib/command.ts';
import {
  definitionFromFlags,
  loadDefinition,
  planDefinition,
  printPlan,
  printPublished,
  publishDefinition,
  summaryOf,
  validateDefinition,
  type DefinitionKind,
  type PublishResult,
} from '../../lib/definition.ts';
import { session, type Session } from '../../lib/engine.ts';
import { CliError } from '../../lib/errors.ts';
import { fileFlag, workingFile, writeJsonFile } from '../../lib/files.ts';
import { print, printJson, progress } from '../../lib/output.ts';
import { basename } from 'node:path';

const fileOption = (kind: DefinitionKind) => ({ type: 'string', requiresArg: true, describe: `definition file (default ./${kind.fileName})` }) as const;

/** A public operation ID as a definition entry: `demo-crm.contacts/get` → `demo-crm=contacts/get`. */
const operationPair = (id: string) => {
  const dot = id.indexOf('.');
  return `${id.slice(0, dot)}=${id.slice(dot + 1)}`;
};

export function initCommand(kind: DefinitionKind) {
  return defineCommand({
    command: 'init <name>',
    describe: `Create the ${kind.noun} definition ./${kind.fileName} from selected services and operations`,
    builder: (y) => {
      const b = y
        .positional('name', { type: 'string', demandOption: true, describe: `${kind.noun} name (lowercase, e.g. crm)` })
        .option('service', { ...repeatable("'<service>=<version>', repeatable"), demandOption: true })
        .option('operation', { ...repeatable("'<service>=<operation>' ('<service>=*' or '<service>=group/*' for many), repeatable"), demandOption: true })
        .option('file', fileOption(kind))
        .option('require-approval', {
          ...repeatable("MCP only: an operation whose calls wait for a person's approval (an ID, a '*' glob, or destructive), repeatable"),
          hidden: kind.kind !== 'mcp',
        })
        .example(`$0 ${kind.kind} init crm --service 'demo-crm=v1' --operation 'demo-crm=contacts/*' --operation 'demo-crm=files/get'`, 'contacts operations plus files/get')
        .example(`$0 ${kind.kind} init gh --service 'github=v1' --operation 'github=issues/create'`, 'one GitHub operation');
      return kind.kind === 'mcp' ? b.example("$0 mcp init crm-agent --service 'demo-crm=v1' --operation 'demo-crm=contacts/*' --require-approval destructive", 'deletes wait for `svc-cli mcp approve`') : b;
    },
    handler: async (argv) => {
      const definition = definitionFromFlags(kind, argv.name, argv.service, argv.operation, argv.requireApproval);
      const s = session();
      progress('checking the selection against the workspace');
      // The selection is checked as an SDK's would be; the approval entries when the MCP server is planned.
      const { requireApproval: _gated, ...selection } = definition;
      const resolved = await validateDefinition(s, kind, selection, 'flags');
      const path = workingFile(kind.fileName, argv.file);
      // The file records the expanded list (docs/architecture.md, apps and Unified operations): a glob read again later would pick up
      // operations added to the catalog since, and a version would change under its users.
      const expanded = { ...definition, operations: resolved.operations.map(operationPair) };
      const outcome = writeJsonFile(path, expanded);
      const verb = outcome === 'unchanged' ? 'Unchanged' : outcome === 'created' ? 'Wrote' : 'Updated';
      print(`${verb} ${basename(path)}: ${kind.noun} ${definition.name} with ${summaryOf(resolved)}.`);
      const file = fileFlag(argv.file);
      print(`Next: \`svc-cli ${kind.kind} plan${file}\`, then \`svc-cli ${kind.kind} apply${file}\`.`);
    },
  });
}

export function planCommand(kind: DefinitionKind) {
  return defineCommand({
    command: 'plan',
    describe: `Preview what apply would change, and the version label it would ${kind.kind === 'sdk' ? 'publish' : 'deploy'}`,
    builder: (y) => jsonOption(y.option('file', fileOption(kind))).example(`$0 ${kind.kind} plan`, `compare ./${kind.fileName} with the latest version`),
    handler: async (argv) => {
      const { path, definition } = loadDefinition(kind, argv.file);
      const s = session();
      printPlan(kind, await planDefinition(s, kind, definition, path), basename(path), argv.json);
    },
  });
}

export function applyCommand<Extra>(
  kind: DefinitionKind,
  options: {
    builder?: (y: Argv<{ file: string | undefined; json: boolean }>) => Argv<Extra & { file: string | undefined; json: boolean }>;
    /** Runs before publishing; throws to refuse. */
    before?: (argv: Extra) => void;
    /** URL and REST endpoint to show for a result. */
    extra: (result: PublishResult, engineUrl: string) => { url?: string; endpoint?: string };
    /** Runs after publishing, also when nothing changed; prints its own lines, or returns fields for --json. */
    after?: (argv: Extra, result: PublishResult, s: Session, json: boolean) => Promise<Record<string, unknown> | undefined>;
    examples: [string, string][];
  },
) {
  return defineCommand({
    command: 'apply',
    describe: `${kind.kind === 'sdk' ? 'Publish' : 'Deploy'} ./${kind.fileName} as a new immutable version (nothing happens when unchanged)`,
    builder: (y) => {
      let b = jsonOption(y.option('file', fileOption(kind)));
      for (const [example, what] of options.examples) b = b.example(example, what);
      return options.builder ? options.builder(b) : (b as unknown as Argv<Extra & { file: string | undefined; json: boolean }>);
    },
    handler: async (argv) => {
      options.before?.(argv as unknown as Extra);
      const { path, definition } = loadDefinition(kind, argv.file);
      const s = session();
      progress(`${kind.kind === 'sdk' ? 'publishing' : 'deploying'} ${definition.name} from ${basename(path)}`);
      const result = await publishDefinition(s, kind, definition, path);
      const extra = options.extra(result, s.url);
      if (!options.after) return printPublished(kind, result, extra, argv.json);
      // The publish result (and a token issued this once) is printed even when `after` fails.
      if (!argv.json) printPublished(kind, result, extra, false);
      let more: Record<string, unknown> | undefined;
      try {
        more = await options.after(argv as unknown as Extra, result, s, argv.json);
      } finally {
        if (argv.json) printPublished(kind, result, extra, true, more);
      }
    },
  });
}

/** `sdk validate`: checks ./svc.sdk.json and shows the expanded operations. */
export function validateCommand(kind: DefinitionKind) {
  return defineCommand({
    command: 'validate',
    describe: `Check ./${kind.fileName} against the catalog and workspace`,
    builder: (y) => jsonOption(y.option('file', fileOption(kind))).example(`$0 ${kind.kind} validate`, `check ./${kind.fileName}`),
    handler: async (argv) => {
      const { path, definition } = loadDefinition(kind, argv.file);
      const s = session();
      const resolved = await validateDefinition(s, kind, definition, path);
      if (argv.json) return printJson(resolved);
      if (!resolved.operations.length) throw new CliError(`${basename(path)} selects no operations`, 'add --operation selections with init');
      print(`${basename(path)} is valid: ${kind.noun} ${resolved.name} with ${summaryOf(resolved)}.`);
      for (const op of resolved.operations) print(`  ${op}`);
    },
  });
}
