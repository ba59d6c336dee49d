// The working files svc-cli keeps in the current directory (svc.workspace.json, svc.sdk.json,
// svc.mcp.json): read with one-line errors, written only when their bytes change.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { visit } from 'jsonc-parser';
import { CliError } from './errors.ts';

export type WriteOutcome = 'created' | 'updated' | 'unchanged';

/** A file-system failure as a one-line error naming the path (a missing directory is the user's to fix, not a bug). */
function cannot(verb: string, path: string, err: unknown): CliError {
  const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return new CliError(`cannot ${verb} ${path} (${code})`, 'check that the path is right, its directory exists and you may write there');
}

/** Creates `dir` and its parents. */
export function makeDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw cannot('create the directory', dir, err);
  }
}

/** Writes `data` to `path`. */
export function writeFile(path: string, data: string | Uint8Array, mode?: number): void {
  try {
    writeFileSync(path, data, mode === undefined ? undefined : { mode });
  } catch (err) {
    throw cannot('write', path, err);
  }
}

/**
 * ` --file <path>` for a next-step hint when --file was given (the next command must read the same
 * file), quoted for a POSIX shell when the path needs it; '' otherwise.
 */
export function fileFlag(file: string | undefined): string {
  if (file === undefined) return '';
  return ` --file ${/^[\w@%+=:,./-]+$/.test(file) ? file : `'${file.replace(/'/g, `'\\''`)}'`}`;
}

/** A directory given where a file was expected (`--file .`). */
const isDirectory = (path: string) => new CliError(`${path} is a directory, not a file`, 'pass the path of a file, not a directory, to --file');

/** Writes `text` unless the file already holds exactly it. */
export function writeIfChanged(path: string, text: string, mode?: number): WriteOutcome {
  const existed = existsSync(path);
  let current: string | undefined;
  try {
    current = existed ? readFileSync(path, 'utf8') : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw isDirectory(path);
    throw cannot('read', path, err);
  }
  if (current === text) return 'unchanged';
  writeFile(path, text, mode);
  return existed ? 'updated' : 'created';
}

export function writeJsonFile(path: string, value: unknown): WriteOutcome {
  return writeIfChanged(path, JSON.stringify(value, null, 2) + '\n');
}

/** Parsed JSON of `path`, or undefined when it does not exist. */
export function readJsonFile(path: string, fix: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw isDirectory(path);
    throw new CliError(`cannot read ${path} (${(err as Error).message})`, fix);
  }
  // Windows editors (Notepad, PowerShell 5 `Set-Content -Encoding UTF8`) start the file with a byte order mark.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(`${basename(path)} is not valid JSON (${(err as Error).message})`, fix);
  }
  // JSON.parse keeps the last of two equal keys and drops the first without a word.
  let twice: string | undefined;
  try {
    twice = duplicateKey(text);
  } catch (err) {
    // The key check recurses per level: thousands of nested brackets overflow the stack (no working file is nested so).
    if (err instanceof RangeError) throw new CliError(`${basename(path)} is nested too deeply to be a svc-cli file`, fix);
    throw err;
  }
  if (twice) throw new CliError(`${basename(path)}: ${twice} is listed twice`, 'keep one of them in the file');
  return value;
}

/**
 * The path (`services.demo-crm`) of the first key an object of `text` (valid JSON) holds twice,
 * or undefined.
 */
export function duplicateKey(text: string): string | undefined {
  const open: Set<string>[] = [];
  let found: string | undefined;
  visit(text, {
    onObjectBegin: () => void open.push(new Set()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (property, _offset, _length, _line, _column, pathSupplier) => {
      const keys = open.at(-1)!;
      if (found === undefined && keys.has(property)) found = [...pathSupplier(), property].join('.');
      keys.add(property);
    },
  });
  return found;
}

/** Absolute path of a working file: `--file` when given, else `name` in the current directory. */
export const workingFile = (name: string, file?: string) => resolve(file ?? name);
