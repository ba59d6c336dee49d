// Usage errors (exit 2) that point at the right `--help` and name what was wrong: yargs' own
// failures rewritten for the command tree, and one-value options given more than once.
import type { Argv } from 'yargs';
import type { CommandNode } from './command.ts';
import { UsageError, looksLikeCredential, shownArgument } from './errors.ts';

/** Where the command words of `args` lead in the tree, and the first word that names no command there. */
export interface Position {
  node: CommandNode;
  /** A word where a (sub)command was expected that names none (`svc-cli bogus`, `svc-cli sdk bogus`). */
  unknown?: string;
}

export function locate(tree: CommandNode, args: string[]): Position {
  let node = tree;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) continue;
    const child = node.children.get(a);
    if (child) {
      node = child;
      continue;
    }
    // The value of an option given before the command (`--bucket b secret set …`).
    const previous = args[i - 1];
    if (previous?.startsWith('--') && !previous.includes('=')) continue;
    return node.children.size ? { node, unknown: a } : { node };
  }
  return { node };
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

/** `svc-cli mcp token` for `token` (a command elsewhere in the tree), or a close spelling at this level. */
function suggestion(tree: CommandNode, node: CommandNode, word: string): string | undefined {
  const elsewhere: string[] = [];
  const walk = (n: CommandNode) => {
    for (const [name, child] of n.children) {
      if (name === word) elsewhere.push(child.path);
      walk(child);
    }
  };
  walk(tree);
  if (elsewhere.length) return elsewhere.join('` or `');
  const close = [...node.children.keys()].filter((name) => distance(name, word) <= Math.max(1, Math.floor(name.length / 3)));
  return close.length ? close.map((name) => `${node.path} ${name}`).join('` or `') : undefined;
}

/** `secret` and its subcommands: what follows them may be the secret itself, so it is never echoed. */
const isUnderSecret = (node: CommandNode) => node.path === 'svc-cli secret' || node.path.startsWith('svc-cli secret ');

/** Options every level knows (root and groups): anything else there is unknown. */
const EVERYWHERE = new Set(['help', 'h', 'version', 'color', 'no-color', 'allow-insecure']);

/**
 * A yargs failure as a usage error naming the thing that was wrong and the `--help` to read.
 * `secret` is special: whatever follows it may be the secret itself, so it is never echoed.
 */
export function usageFailure(message: string, args: string[], tree: CommandNode, secretRefused: () => UsageError): UsageError {
  const { node, unknown } = locate(tree, args);
  const help = `run \`${node.path} --help\` for usage`;
  const underSecret = isUnderSecret(node);
  const yargsUnknown = /^(Did you mean .*\?|Unknown arguments?(:.*)?|choose a .*)$/is.test(message);

  if (underSecret) {
    const set = node.path === 'svc-cli secret set';
    if (unknown !== undefined) {
      // `secret demo-crm <value>` (set forgotten) looks like a secret; a lone unknown word is a typo.
      const words = args.slice(args.indexOf(unknown) + 1).filter((a) => !a.startsWith('-'));
      if (words.length) return secretRefused();
      const like = suggestion(tree, node, unknown);
      return new UsageError('unknown secret subcommand (not shown, in case it holds a secret)', `${like ? `did you mean \`${like}\`? ` : ''}run \`svc-cli secret --help\` for usage`);
    }
    if (!set && /^Unknown arguments?:/i.test(message)) return secretRefused();
    if (set && /^Unknown arguments?:/i.test(message)) {
      // After `secret set <service>`, a word that is no option's value, or an unknown `--x=value`,
      // may be the secret: refuse it as such. A bare unknown option (a typo of --value-stdin) is
      // only unknown, but it is not shown either.
      const at = args.indexOf('set');
      const rest = args.slice(at + 1);
      let words = 0;
      let valued = false;
      for (let i = 0; i < rest.length; i++) {
        const a = rest[i]!;
        if (a === '--') {
          words += rest.length - i - 1;
          break;
        }
        if (a.startsWith('-')) {
          if (a.includes('=') && !/^--(bucket|oauth-client-id)=/.test(a)) valued = true;
          if (/^--(bucket|oauth-client-id)$/.test(a)) i++;
          continue;
        }
        words++;
      }
      // The hint never repeats the service word: put first by mistake, it may be the secret itself.
      if (words > 1 || valued) return secretRefused();
      return new UsageError('unknown option (not shown, in case it holds a secret)', `the secret is piped in with --value-stdin; run \`svc-cli secret set --help\` for the options`);
    }
  }

  const unknownArguments = /^Unknown arguments?: (.*)$/is.exec(message);
  if (unknownArguments && unknownArguments[1]!.split(', ').some(looksLikeCredential)) {
    // `login --with-token svc_cli_…`: yargs would name the credential itself.
    const pipe = node.path === 'svc-cli login' ? 'credentials are read from standard input: `printf %s "$TOKEN" | svc-cli login --with-token`; ' : '';
    return new UsageError('unknown argument that looks like a credential (not shown)', `${pipe}${help}`);
  }

  // `svc-cli --json sdk list` (or `sdk --json list`): an option before a command word is unknown
  // where it stands, so it takes that word for its value, and yargs then asks for a command or
  // calls the words left over unknown.
  const words = node.path.split(' ').slice(1);
  let early: { option: string; word: string } | undefined;
  for (let i = 0, from = 0; i < words.length && !early; i++) {
    const at = args.indexOf(words[i]!, from);
    const before = at > 0 ? args[at - 1]! : '';
    if (/^-[^-=]|^--(?!no-)[^=]+$/.test(before) && !EVERYWHERE.has(before.replace(/^-+/, ''))) early = { option: before, word: words[i]! };
    from = at + 1;
  }
  if (early && !underSecret) {
    return new UsageError(`${early.option} is before the command words (it took '${early.word}' for its value)`, `put options after them, e.g. \`${node.path} ${early.option}\`; run \`${node.path} --help\` for usage`);
  }

  if (unknown !== undefined && yargsUnknown) {
    const what = node === tree ? `unknown command ${shownArgument(unknown)}` : `unknown ${node.path.slice('svc-cli '.length)} subcommand ${shownArgument(unknown)}`;
    const like = suggestion(tree, node, unknown);
    return new UsageError(what, `${like ? `did you mean \`${like}\`? ` : ''}run \`${node.path} --help\` for the commands`);
  }

  if (/^choose a /i.test(message) && node.children.size) {
    // `svc-cli --foo`: an option where a command was expected.
    const option = args.find((a) => a.startsWith('-') && a !== '--' && !EVERYWHERE.has(a.replace(/^-+/, '').split('=')[0]!));
    if (option) return new UsageError(`unknown option ${option.split('=')[0]}`, `run \`${node.path} --help\` for the commands and options`);
  }

  const missing = /^Not enough non-option arguments: got (\d+), need at least (\d+)/i.exec(message);
  if (missing && node.positionals.length) {
    const absent = node.positionals.slice(Number(missing[1]));
    if (absent.length) return new UsageError(`missing ${absent.join(' ')} (${node.path} ${node.positionals.join(' ')})`, help);
  }

  const valueless = /^Not enough arguments following: (.+)$/i.exec(message);
  if (valueless) return new UsageError(`--${valueless[1]} needs a value`, help);

  // yargs names options in these without their dashes (`missing required argument: for`); the
  // line names them as they are typed, like every other usage error.
  const named = (key: string) => (node.positionals.includes(`<${key}>`) ? `<${key}>` : `--${key}`);
  const required = /^Missing required arguments?: (.+)$/is.exec(message);
  if (required) {
    const keys = required[1]!.split(', ').map(named);
    return new UsageError(`${keys.join(' and ')} ${keys.length > 1 ? 'are' : 'is'} required`, help);
  }
  const invalid = /^Invalid values:\s*Argument: ([\w-]+), Given: (.*), Choices: (.*)$/is.exec(message);
  if (invalid) return new UsageError(`${named(invalid[1]!)} ${invalid[2]} is not one of ${invalid[3]}`, help);
  const exclusive = /^Arguments ([\w-]+) and ([\w-]+) are mutually exclusive$/i.exec(message);
  if (exclusive) return new UsageError(`${named(exclusive[1]!)} and ${named(exclusive[2]!)} are mutually exclusive`, `give one of them; ${help}`);
  const dependent = /^Missing dependent arguments:\s*([\w-]+) -> ([\w-]+)/i.exec(message);
  if (dependent) return new UsageError(`${named(dependent[1]!)} needs ${named(dependent[2]!)}`, help);

  const unknownList = /^Unknown arguments?: (.*)$/is.exec(message);
  if (unknownList) {
    // yargs lists an unknown `--zz-bogus` twice, as `zz-bogus, zzBogus`: the second (its camel-case
    // alias) was never typed, so only the first is named.
    const names = unknownList[1]!.split(', ');
    const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const typed = names.filter((n) => !(kebab(n) !== n && names.includes(kebab(n)) && !args.some((a) => a === `--${n}` || a.startsWith(`--${n}=`))));
    return new UsageError(`unknown argument${typed.length > 1 ? 's' : ''}: ${typed.join(', ')}`, help);
  }

  const what = message.charAt(0).toLowerCase() + message.slice(1);
  return new UsageError(what, help);
}

type ParsedOptions = { key: Record<string, unknown>; array: string[]; boolean: string[]; number: string[]; string: string[]; alias: Record<string, string[]> };
const optionsOf = (y: Argv) => (y as unknown as { getOptions(): ParsedOptions }).getOptions();

/** How an option was typed (`--q` for `--query`), else `--<key>`. */
const typedName = (args: string[], names: string[], key: string) =>
  args.find((a) => names.some((n) => a === `--${n}` || a.startsWith(`--${n}=`) || a === `-${n}`))?.split('=')[0] ?? `--${key}`;

/**
 * yargs turns a one-value option given twice into an array (`--expires 7d --expires 1d`), which
 * commands would then send on or crash on. Refuses that for every option not declared repeatable.
 */
export function refuseRepeatedOptions(argv: Record<string, unknown>, y: Argv, args: string[], path: string): void {
  const options = optionsOf(y);
  for (const key of Object.keys(options.key)) {
    const names = [key, ...(options.alias[key] ?? [])];
    if (names.some((n) => options.array.includes(n))) continue;
    const value = argv[key];
    if (Array.isArray(value) && value.length > 1) {
      const times = value.length === 2 ? 'twice' : `${value.length} times`;
      throw new UsageError(`${typedName(args, names, key)} was given ${times}`, `give it once; run \`${path} --help\` for usage`);
    }
  }
}

/**
 * yargs reads `--no-<flag>` as false and `--<flag>.<key> v` as an object for any flag, so a value
 * flag could reach a command as a boolean or an object. Refuses every option whose value is not
 * of its declared type, naming the flag (never what was typed after it: under `secret` a dotted
 * flag's value, or `--value` itself, may be the secret).
 */
export function refuseMistypedOptions(argv: Record<string, unknown>, y: Argv, args: string[], node: CommandNode, secretRefused: () => UsageError): void {
  const options = optionsOf(y);
  for (const key of Object.keys(options.key)) {
    const type = (['string', 'number', 'boolean'] as const).find((t) => options[t].includes(key));
    const value = argv[key];
    if (!type || value === undefined) continue;
    if ((Array.isArray(value) ? value : [value]).every((v) => typeof v === type)) continue;
    const names = [key, ...(options.alias[key] ?? [])];
    const flag = `--${key}`;
    const dotted = args.some((a) => names.some((n) => a.startsWith(`--${n}.`)));
    if (isUnderSecret(node) && (dotted || key === 'value')) throw secretRefused();
    const negated = args.some((a) => names.some((n) => a === `--no-${n}` || a.startsWith(`--no-${n}=`)));
    const wrong = dotted ? `${flag}.<key> is not an option` : negated ? `--no-${key} is not an option` : `it needs a ${type}`;
    const what = type === 'boolean' ? `${flag} is a yes/no flag: ${wrong}` : `${flag} takes a value: ${wrong}`;
    throw new UsageError(what, `${type === 'boolean' ? `give ${flag} alone` : `give ${flag} a value`}, or leave it out; run \`${node.path} --help\` for usage`);
  }
}

/**
 * Words after `--` are positionals yargs' strict mode lets through (it keeps them in argv['--']):
 * a command would silently ignore them (`mcp token revoke A -- B` revoking A only). Under
 * `secret` they may be the secret itself.
 */
export function refuseWordsAfterDashes(argv: { '--'?: unknown[] }, node: CommandNode, secretRefused: () => UsageError): void {
  const extra = (argv['--'] ?? []).map(String);
  if (!extra.length) return;
  if (isUnderSecret(node)) throw secretRefused();
  const usage = [node.path, ...node.positionals].join(' ');
  throw new UsageError(`unexpected argument ${shownArgument(extra[0]!)} after \`--\``, `\`${usage}\` takes nothing more; run \`${node.path} --help\` for usage`);
}

/**
 * A positional given empty or blank (an unset shell variable: `svc-cli sdk token list "$SDK"`):
 * it would become an empty request path segment, which the Engine answers as a route it does not
 * have (told as "upgrade the Engine"), or a file name that cannot be read. The hint is the
 * positional's own description.
 */
export function refuseBlankPositionals(argv: Record<string, unknown>, y: Argv, node: CommandNode): void {
  for (const positional of node.positionals) {
    const name = positional.replace(/^[<[]|[>\]]$/g, '');
    const value = argv[name];
    if (typeof value !== 'string' || value.trim() !== '') continue;
    const described = descriptionsOf(y)[name];
    throw new UsageError(`${positional} is empty`, `give ${positional}${described ? `: ${described}` : ''}; run \`${node.path} --help\` for usage`);
  }
}

const descriptionsOf = (y: Argv): Record<string, string | undefined> =>
  (y as unknown as { getInternalMethods(): { getUsageInstance(): { getDescriptions(): Record<string, string | undefined> } } }).getInternalMethods().getUsageInstance().getDescriptions();

/** A flag given an empty or blank value (an unset shell variable), refused before anything is sent. */
export function refuseBlank(flag: string, value: string | undefined, hint: string): void {
  if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} is empty`, hint);
}
