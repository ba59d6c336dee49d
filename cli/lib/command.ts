// Small typing helpers so each command file declares its flags once and gets typed argv.
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';

export interface CommandSpec<U> {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv<U>;
  handler: (argv: ArgumentsCamelCase<U>) => Promise<void> | void;
}

// yargs' CommandModule types do not line up with builders written against Argv<{}>, hence the cast.
export const defineCommand = <U>(spec: CommandSpec<U>): CommandModule => spec as unknown as CommandModule;

/** A node of the command tree (the root, a group or a command), for usage errors that name the right `--help`. */
export interface CommandNode {
  /** `svc-cli sdk init`. */
  path: string;
  /** `<name>` for `init <name>`: the positionals the command takes, in order. */
  positionals: string[];
  children: Map<string, CommandNode>;
}

const groupChildren = new WeakMap<CommandModule, CommandModule[]>();

/** The tree of `modules` under `path`, walking into groups made by defineGroup. */
export function commandTree(modules: CommandModule[], path = 'svc-cli', positionals: string[] = []): CommandNode {
  const children = new Map<string, CommandNode>();
  for (const m of modules) {
    const [word = '', ...rest] = String(Array.isArray(m.command) ? m.command[0] : m.command).split(' ');
    children.set(word, commandTree(groupChildren.get(m) ?? [], `${path} ${word}`, rest));
  }
  return { path, positionals, children };
}

/** A command group (`sdk`, `mcp token`, …) made of subcommands; it needs one of them. */
export function defineGroup(name: string, describe: string, subcommands: CommandModule[], examples: [string, string][]): CommandModule {
  const group: CommandModule = {
    command: name,
    describe,
    builder: (y: Argv) => {
      for (const c of subcommands) y.command(c);
      for (const [example, what] of examples) y.example(example, what);
      return y.demandCommand(1, `choose a ${name} subcommand`);
    },
    handler: () => {},
  };
  groupChildren.set(group, subcommands);
  return group;
}

/** `--json` for list/show commands. */
export const jsonOption = <T>(y: Argv<T>) => y.option('json', { type: 'boolean', default: false, describe: 'print JSON instead of text' });

/** A repeatable string flag (`--operation a --operation b`) that never swallows positionals. */
export const repeatable = (describe: string) => ({ type: 'string' as const, array: true as const, requiresArg: true, nargs: 1, describe });
