// Every failure svc-cli reports is one line on stderr: `svc-cli: <what is wrong> — <how to fix>`,
// with exit code 1 (failure) or 2 (usage).

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A failure the user can act on. `hint` says how to fix it. */
export class CliError extends Error {
  override name = 'CliError';
  readonly hint: string | undefined;
  readonly exitCode: number;

  constructor(message: string, hint?: string, exitCode: number = EXIT_FAILURE) {
    super(message);
    this.hint = hint;
    this.exitCode = exitCode;
  }
}

/** Wrong arguments or flags: exit code 2. */
export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, hint?: string) {
    super(message, hint, EXIT_USAGE);
  }
}

/** What an SDK execution token, MCP token or CLI credential starts with. */
const CREDENTIAL_PREFIX = /^svc_(cli|sdk|mcp)_/;

/** Whether an argument looks like a credential: such a value is never shown back. */
export const looksLikeCredential = (text: string) => CREDENTIAL_PREFIX.test(text.trim());

/** An argument quoted for an error line, or said to be withheld when it looks like a credential. */
export const shownArgument = (text: string) => (looksLikeCredential(text) ? 'that looks like a credential (not shown)' : `'${text}'`);

/** A credential anywhere in a text (an argument echoed in a message, or a server's answer). */
const CREDENTIAL_IN_TEXT = /svc_(cli|sdk|mcp)_[A-Za-z0-9_-]+/g;

/** `text` with every credential in it withheld. */
export const withoutCredentials = (text: string) => text.replace(CREDENTIAL_IN_TEXT, 'svc_$1_… (a credential, not shown)');

/**
 * One printable line: line breaks become spaces; other control characters (an argument holding
 * ESC, CR or BEL) and bidirectional overrides (U+202E shows the rest of the line reversed) are
 * shown as \uXXXX rather than acted on by the terminal; and a credential is withheld wherever it
 * appears, since every message that quotes an argument or a server's words would otherwise print
 * one pasted into the wrong place.
 */
const oneLine = (text: string) =>
  withoutCredentials(
    text
      .replace(/\s*\n\s*/g, ' ')
      .trim()
      .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );

/** The single stderr line for an error. */
export function errorLine(message: string, hint?: string): string {
  const what = oneLine(message).replace(/[.\s]+$/, '');
  return hint ? `svc-cli: ${what} — ${oneLine(hint)}` : `svc-cli: ${what}`;
}

/** Prints the error line and sets the exit code. Unexpected errors are reported on one line too. */
export function report(err: unknown): void {
  if (err instanceof CliError) {
    process.stderr.write(errorLine(err.message, err.hint) + '\n');
    process.exitCode = err.exitCode;
    return;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(errorLine(`unexpected error: ${message}`, 'this is a bug in svc-cli; please report it with the command you ran') + '\n');
  process.exitCode = EXIT_FAILURE;
}
