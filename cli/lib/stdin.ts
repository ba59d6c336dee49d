// Secrets and credentials come from standard input only, never from arguments.
import { isUtf8 } from 'node:buffer';
import { UsageError } from './errors.ts';

/**
 * Reads all of stdin as UTF-8 and drops trailing line breaks (what `echo` adds).
 * Refuses a terminal (so a value is never typed where it would echo), an empty value and bytes
 * that are not UTF-8 (decoding would swap them for U+FFFD and store a different value). All are
 * usage errors (exit 2): the command was run without the input it needs, and nothing was tried.
 */
export async function readSecretFromStdin(what: string, example: string): Promise<string> {
  if (process.stdin.isTTY) {
    throw new UsageError(`${what} is read from standard input, which is a terminal here`, `pipe it in, e.g. ${example}`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  if (!isUtf8(bytes)) throw new UsageError(`the ${what} on standard input is not valid UTF-8`, `pipe it in as UTF-8 text, e.g. ${example}`);
  const value = bytes.toString('utf8').replace(/[\r\n]+$/, '');
  if (!value.trim()) throw new UsageError(`no ${what} on standard input (it was empty)`, `pipe it in, e.g. ${example}`);
  return value;
}
