// Output helpers: JSON, aligned tables, and progress lines that appear on a TTY only (stderr).
// Colour appears only when the stream written is a terminal, and never with NO_COLOR or --no-color
// (picocolors' own detection also colours pipes whenever CI is set, so it is not used).
import pc from 'picocolors';

let colorAllowed = true;

/** `--no-color` (false) turns colours off for the rest of the command. */
export function setColor(allowed: boolean): void {
  colorAllowed = allowed;
}

const colors = (stream: NodeJS.WriteStream) =>
  pc.createColors(colorAllowed && stream.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb');

// A reader that stops early (`svc-cli … | head -1`) is not a failure: stop quietly.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function print(line = ''): void {
  process.stdout.write(line + '\n');
}

/** Left-aligned columns separated by two spaces; an empty list prints `empty` instead. */
/** Control characters (ESC, BEL, CR…) shown as U+FFFD: a cell prints as text, never as terminal commands. */
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');

export function printTable(headers: string[], rows: (string | number | null | undefined)[][], empty: string): void {
  if (!rows.length) {
    print(empty);
    return;
  }
  // Text from the Engine (an imported API's title) may hold escape sequences: never passed to the terminal.
  const cells = rows.map((r) => r.map((c) => (c === null || c === undefined || c === '' ? '-' : printable(String(c)))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ');
  print(colors(process.stdout).bold(line(headers)));
  for (const r of cells) print(line(r));
}

/** A progress step on stderr, only when stderr is a terminal (never in pipes, logs or CI). */
export function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(colors(process.stderr).dim(`… ${text}`) + '\n');
}

/** Colours a plan line by its action (+ green, - red, ~ yellow) when stdout is a terminal. */
export function planLine(action: '+' | '-' | '~', text: string): string {
  const line = `  ${action} ${text}`;
  const c = colors(process.stdout);
  return action === '+' ? c.green(line) : action === '-' ? c.red(line) : c.yellow(line);
}

/** A shell word that reads back as `text`: as it is when a shell would not split or interpret it, else single-quoted. */
export const shellWord = (text: string) => (/^[A-Za-z0-9_@%+=:,.\/-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
