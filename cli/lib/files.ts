// The working files svc-cli keeps in the current directory (svc.workspace.json, svc.sdk.json,
// svc.mcp.json): read with one-line errors, written only when their bytes change.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { CliError } from './errors.ts';

export type WriteOutcome = 'created' | 'updated' | 'unchanged';

/** Writes `text` unless the file already holds exactly it. */
export function writeIfChanged(path: string, text: string, mode?: number): WriteOutcome {
  const existed = existsSync(path);
  if (existed && readFileSync(path, 'utf8') === text) return 'unchanged';
  writeFileSync(path, text, mode === undefined ? undefined : { mode });
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
    throw new CliError(`cannot read ${path} (${(err as Error).message})`, fix);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${basename(path)} is not valid JSON (${(err as Error).message})`, fix);
  }
}

/** Absolute path of a working file: `--file` when given, else `name` in the current directory. */
export const workingFile = (name: string, file?: string) => resolve(file ?? name);
