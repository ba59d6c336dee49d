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

/** Every word that names a command or group, for pointing usage errors at the right `--help`. */
export const commandWords = new Set<string>();

/** A command group (`sdk`, `mcp token`, …) made of subcommands; it needs one of them. */
export function defineGroup(name: string, describe: string, subcommands: CommandModule[], examples: [string, string][]): CommandModule {
  commandWords.add(name);
  for (const c of subcommands) {
    const word = String(Array.isArray(c.command) ? c.command[0] : c.command).split(' ')[0];
    if (word) commandWords.add(word);
  }
  return {
    command: name,
    describe,
    builder: (y: Argv) => {
      for (const c of subcommands) y.command(c);
      for (const [example, what] of examples) y.example(example, what);
      return y.demandCommand(1, `choose a ${name} subcommand`);
    },
    handler: () => {},
  };
}

/** `--json` for list/show commands. */
export const jsonOption = <T>(y: Argv<T>) => y.option('json', { type: 'boolean', default: false, describe: 'print JSON instead of text' });

/** A repeatable string flag (`--operation a --operation b`) that never swallows positionals. */
export const repeatable = (describe: string) => ({ type: 'string' as const, array: true as const, requiresArg: true, nargs: 1, describe });
